"""Roles per club: each user's role groups become roles at club 1 (the one club of an
installation before clubs), and the groups go (nothing reads them any more)."""

import clubsite.tenancy
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


ROLES = ("Secretary", "Director", "Player")


def roles_from_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    ClubRole = apps.get_model("clubsite", "ClubRole")
    for group in Group.objects.filter(name__in=ROLES):
        ClubRole.objects.bulk_create(
            [ClubRole(club_id=1, user_id=user.pk, role=group.name) for user in group.user_set.all()]
        )
    Group.objects.filter(name__in=ROLES).delete()


def groups_from_roles(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    ClubRole = apps.get_model("clubsite", "ClubRole")
    for name in ROLES:
        group, _created = Group.objects.get_or_create(name=name)
        group.user_set.add(*ClubRole.objects.filter(role=name).values_list("user_id", flat=True))


class Migration(migrations.Migration):

    dependencies = [
        ('clubsite', '0003_clubs_as_tenants'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ClubRole',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('role', models.CharField(choices=[('Secretary', 'Secretary'), ('Director', 'Director'), ('Player', 'Player')], max_length=12, verbose_name='role')),
                ('club', models.ForeignKey(default=clubsite.tenancy.current_club_id, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='roles', to='clubsite.club', verbose_name='club')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='club_roles', to=settings.AUTH_USER_MODEL, verbose_name='user account')),
            ],
            options={
                'verbose_name': 'role at the club',
                'verbose_name_plural': 'roles at the club',
            },
        ),
        migrations.AlterField(
            model_name='member',
            name='user',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='memberships', to=settings.AUTH_USER_MODEL, verbose_name='user account'),
        ),
        migrations.AddConstraint(
            model_name='member',
            constraint=models.UniqueConstraint(condition=models.Q(('user__isnull', False)), fields=('club', 'user'), name='one_member_per_account_per_club'),
        ),
        migrations.AddConstraint(
            model_name='clubrole',
            constraint=models.UniqueConstraint(fields=('club', 'user', 'role'), name='one_role_once_per_club'),
        ),
        migrations.RunPython(roles_from_groups, groups_from_roles),
    ]

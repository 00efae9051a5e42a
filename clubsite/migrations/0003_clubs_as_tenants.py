"""Clubs as tenants: every club-owned row belongs to a club (clubsite/tenancy.py).

An installation of one club keeps it as club 1, made here when missing (the code before
this made it on first use, with id 1 written by hand: the id sequence is set past it, so a
second club gets the next id); every existing row goes to it.
"""

import clubsite.tenancy
import django.db.models.deletion
from django.conf import settings
from django.core.management.color import no_style
from django.db import migrations, models


def default_club(apps, schema_editor):
    Club = apps.get_model("clubsite", "Club")
    if not Club.objects.filter(pk=1).exists():
        Club.objects.create(pk=1)
    statements = schema_editor.connection.ops.sequence_reset_sql(no_style(), [Club])
    with schema_editor.connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


class Migration(migrations.Migration):

    dependencies = [
        ('clubsite', '0002_roles'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(default_club, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name='member',
            name='unique_licence_number_when_present',
        ),
        migrations.AddField(
            model_name='category',
            name='club',
            field=models.ForeignKey(default=1, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='categories', to='clubsite.club', verbose_name='club'),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='club',
            name='host',
            field=models.CharField(blank=True, help_text="The club's own host name (e.g. «bridge.example.org»), if it has one.", max_length=200, null=True, unique=True, verbose_name='host name'),
        ),
        migrations.AddField(
            model_name='club',
            name='slug',
            field=models.SlugField(blank=True, help_text="Its sub-domain under the installation's base domain (e.g. «madrid»).", max_length=40, null=True, unique=True, verbose_name='short name'),
        ),
        migrations.AddField(
            model_name='historicalmember',
            name='club',
            field=models.ForeignKey(blank=True, db_constraint=False, default=1, editable=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubsite.club', verbose_name='club'),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='member',
            name='club',
            field=models.ForeignKey(default=1, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='members', to='clubsite.club', verbose_name='club'),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='season',
            name='club',
            field=models.ForeignKey(default=1, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='seasons', to='clubsite.club', verbose_name='club'),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name='category',
            name='club',
            field=models.ForeignKey(default=clubsite.tenancy.current_club_id, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='categories', to='clubsite.club', verbose_name='club'),
        ),
        migrations.AlterField(
            model_name='historicalmember',
            name='club',
            field=models.ForeignKey(blank=True, db_constraint=False, default=clubsite.tenancy.current_club_id, editable=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubsite.club', verbose_name='club'),
        ),
        migrations.AlterField(
            model_name='member',
            name='club',
            field=models.ForeignKey(default=clubsite.tenancy.current_club_id, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='members', to='clubsite.club', verbose_name='club'),
        ),
        migrations.AlterField(
            model_name='season',
            name='club',
            field=models.ForeignKey(default=clubsite.tenancy.current_club_id, editable=False, on_delete=django.db.models.deletion.CASCADE, related_name='seasons', to='clubsite.club', verbose_name='club'),
        ),
        migrations.AlterField(
            model_name='category',
            name='code',
            field=models.SlugField(max_length=20, verbose_name='code'),
        ),
        migrations.AlterField(
            model_name='season',
            name='name',
            field=models.CharField(max_length=20, verbose_name='name'),
        ),
        migrations.AlterField(
            model_name='season',
            name='start',
            field=models.DateField(verbose_name='start'),
        ),
        migrations.AddConstraint(
            model_name='category',
            constraint=models.UniqueConstraint(fields=('club', 'code'), name='category_code_per_club', violation_error_message='A category with this code already exists.'),
        ),
        migrations.AddConstraint(
            model_name='member',
            constraint=models.UniqueConstraint(condition=models.Q(('licence_number', ''), _negated=True), fields=('club', 'licence_number'), name='unique_licence_number_when_present', violation_error_message='A member with this licence number already exists.'),
        ),
        migrations.AddConstraint(
            model_name='season',
            constraint=models.UniqueConstraint(fields=('club', 'name'), name='season_name_per_club', violation_error_message='A season with this name already exists.'),
        ),
        migrations.AddConstraint(
            model_name='season',
            constraint=models.UniqueConstraint(fields=('club', 'start'), name='season_start_per_club', violation_error_message='A season starting that day already exists.'),
        ),
    ]

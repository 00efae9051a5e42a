"""Fee lines get the day they apply from; existing lines apply from their season's start."""

from django.db import migrations, models


def from_season_start(apps, schema_editor):
    Fee = apps.get_model("clubsite", "Fee")
    for fee in Fee.objects.select_related("season").filter(effective_from__isnull=True):
        fee.effective_from = fee.season.start
        fee.save(update_fields=["effective_from"])


class Migration(migrations.Migration):

    dependencies = [
        ("clubsite", "0002_roles"),
    ]

    operations = [
        migrations.AddField(
            model_name="fee",
            name="effective_from",
            field=models.DateField(blank=True, null=True, verbose_name="applies from"),
        ),
        migrations.RunPython(from_season_start, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="fee",
            name="effective_from",
            field=models.DateField(
                blank=True,
                help_text="Empty: from the season's start. A later day changes the fee for "
                          "charges made from that day on.",
                verbose_name="applies from",
            ),
        ),
        migrations.AlterModelOptions(
            name="fee",
            options={"ordering": ["season__start", "kind", "category__name", "effective_from"],
                     "verbose_name": "fee", "verbose_name_plural": "fee schedule"},
        ),
        migrations.RemoveConstraint(model_name="fee", name="one_fee_per_line"),
        migrations.AddConstraint(
            model_name="fee",
            constraint=models.UniqueConstraint(
                fields=("season", "kind", "category", "effective_from"),
                name="one_fee_per_line_and_day",
            ),
        ),
    ]

"""Table codes get a long random link token; existing rows get theirs here.

Added empty, filled row by row, then made unique and required in the next migration (kept
apart so PostgreSQL never alters a table with pending updates in the same transaction).
The short code no longer has to be unique site-wide: it only counts with its own table.
"""

import secrets

from django.db import migrations, models


def fill_tokens(apps, schema_editor):
    TableCode = apps.get_model("tournaments", "TableCode")
    for row in TableCode.objects.filter(token__isnull=True).only("pk").iterator():
        TableCode.objects.filter(pk=row.pk).update(token=secrets.token_urlsafe(16))


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0007_results_pdf_per_session'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='tablecode',
            name='unique_table_code',
        ),
        migrations.AddField(
            model_name='tablecode',
            name='token',
            field=models.CharField(editable=False, max_length=43, null=True,
                                   verbose_name='link token'),
        ),
        migrations.RunPython(fill_tokens, migrations.RunPython.noop),
    ]

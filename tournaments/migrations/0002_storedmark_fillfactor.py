"""Board marks leave half of each page free on PostgreSQL (fillfactor 50).

An incremental re-classification (``services.incremental``) moves the unchanged marks of a
session to the new ranking version in one ``UPDATE``; with full pages PostgreSQL writes every
row anew in each of the table's eight indexes (0.23 s for 3,600 marks), with room on the
page it updates them in place (HOT, 0.016 s). Other databases have no such setting.
"""

from django.db import migrations


def fill_half(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE tournaments_storedmark SET (fillfactor = 50)")


def fill_whole(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE tournaments_storedmark RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]

    operations = [migrations.RunPython(fill_half, fill_whole)]

"""``manage.py restore PATH [--yes]``: put a backup made by ``manage.py backup`` back."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from clubsite.ops.backup import BackupError, restore


class Command(BaseCommand):
    help = (
        "Restore the database from PATH (a .sqlite3 or .pgdump made by `manage.py backup`) "
        "and the media files from the -media.tar.gz next to it. Refuses a database that "
        "holds data unless --yes. Stop the site (and the worker) first."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="the database file of the backup")
        parser.add_argument(
            "--yes", action="store_true", help="overwrite a database that already holds data"
        )
        parser.add_argument("--database", default="default", help="database alias")

    def handle(self, *args, **options):
        try:
            done = restore(
                Path(options["path"]), using=options["database"], overwrite=options["yes"]
            )
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        for line in done:
            self.stdout.write(line)

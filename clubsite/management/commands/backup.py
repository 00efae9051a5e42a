"""``manage.py backup [--output DIR]``: the database and the media files, side by side."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from clubsite.ops.backup import BackupError, backup


class Command(BaseCommand):
    help = (
        "Back up the database (SQLite online backup, or pg_dump custom format) and the "
        "media files (a .tar.gz next to it) into DIR (default: BACKUP_DIR)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--output",
            "-o",
            default=None,
            help="directory for the backup files (created if missing)",
        )
        parser.add_argument("--database", default="default", help="database alias")

    def handle(self, *args, **options):
        output = Path(options["output"] or settings.BACKUP_DIR)
        try:
            files = backup(output, using=options["database"])
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"database: {files.database}")
        self.stdout.write(f"media: {files.media}")

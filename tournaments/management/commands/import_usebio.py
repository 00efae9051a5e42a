"""``python manage.py import_usebio FILE``: import a USEBIO 1.2 file, print the verify report."""

from pathlib import Path

from django.core.management.base import CommandError

from clubsite.ops.clubs import ClubCommand
from tournaments.imports.usebio import AlreadyImported, UsebioError, import_file, report_text


class Command(ClubCommand):
    help = "Import a USEBIO 1.2 results file as a finished tournament and verify its figures."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the USEBIO XML file")
        parser.add_argument(
            "--strict",
            action="store_true",
            help="exit with status 1 when the verify report finds differences",
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="a file imported before replaces the earlier tournament",
        )

    def handle(self, *args, file: str, strict: bool = False, replace: bool = False, **options):
        path = Path(file)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"{path}: {exc.strerror}") from exc
        try:
            record = import_file(data, file_name=path.name, replace=replace)
        except AlreadyImported as exc:
            raise CommandError(exc.message + " (--replace)") from exc
        except UsebioError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(report_text(record))
        if strict and record.differences:
            raise CommandError(f"{len(record.differences)} differences")

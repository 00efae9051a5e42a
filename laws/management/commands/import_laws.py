"""``manage.py import_laws``: parse laws/data and store every edition (run by ``make run``)."""

from django.core.management.base import BaseCommand, CommandError

from laws.importer import ImportFailed, StructureError, parse_all, report
from laws.services import store


class Command(BaseCommand):
    help = "Import the Laws (all editions in laws/data); idempotent, fails on residue."

    def handle(self, *args, **options):
        try:
            editions = parse_all()
        except (ImportFailed, StructureError) as exc:
            raise CommandError(f"Laws import failed, nothing stored:\n{exc}") from exc
        outcome = store(editions)
        for line in report(editions, list_unresolved=options["verbosity"] >= 2):
            self.stdout.write(line)
        for code, what in outcome.items():
            self.stdout.write(f"{code}: {what}")

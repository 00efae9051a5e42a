"""``python manage.py export_results TOURNAMENT --format usebio|pbn -o FILE``."""

import sys
from pathlib import Path

from django.core.management.base import CommandError

from clubsite.ops.clubs import ClubCommand
from tournaments.documents import FORMATS, export_text
from tournaments.models import Tournament
from tournaments.services.errors import TournamentError


def find_tournament(ref: str) -> Tournament:
    """A tournament by id or slug."""
    found = Tournament.objects.filter(slug=ref).first()
    if found is None and ref.isdigit():
        found = Tournament.objects.filter(pk=int(ref)).first()
    if found is None:
        raise CommandError(f"No tournament with id or slug {ref!r}.")
    return found


class Command(ClubCommand):
    help = "Write a tournament's results as USEBIO 1.2 XML or PBN 2.1."

    def add_arguments(self, parser):
        parser.add_argument("tournament", help="the tournament's id or slug")
        parser.add_argument("--format", choices=sorted(FORMATS), default="usebio")
        parser.add_argument("-o", "--output", default="-", help="file to write ('-': stdout)")

    def handle(self, *args, tournament: str, format: str, output: str, **options):
        try:
            text = export_text(find_tournament(tournament), format)
        except TournamentError as exc:
            raise CommandError(exc.message) from exc
        if output == "-":
            sys.stdout.write(text)
            return
        Path(output).write_text(text, encoding="utf-8")
        self.stderr.write(f"{output}: {len(text.encode())} bytes")

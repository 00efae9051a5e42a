"""Running an installation of several clubs: the default club's row, and commands that work
for one club (``--club``)."""

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q

from clubsite.models import Club
from clubsite.tenancy import club_scope, default_club_id


def ensure_default_club(using="default", **kwargs) -> None:
    """The default club's row, made when missing (after the migrations made it, a flush of
    the database removes it)."""
    from django.core.management.color import no_style
    from django.db import connections

    club_id = default_club_id()
    if club_id is None or Club.objects.using(using).filter(pk=club_id).exists():
        return
    Club.objects.using(using).create(pk=club_id)
    connection = connections[using]
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [Club]):
            cursor.execute(sql)


# --- management commands ----------------------------------------------------------------------


class ClubCommand(BaseCommand):
    """A management command that works for one club: ``--club`` names it (its short name,
    host or id); without it, the default club (``DEFAULT_CLUB_ID``), or the only club."""

    def create_parser(self, prog_name, subcommand, **kwargs):
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.add_argument(
            "--club", default="", help="the club to work for: its short name, host or id"
        )
        return parser

    def execute(self, *args, **options):
        with club_scope(command_club_id(options.get("club") or "")):
            return super().execute(*args, **options)


def command_club_id(name: str) -> int:
    clubs = Club.objects.all()
    if name:
        lookup = Q(slug=name) | Q(host=name.lower())
        if name.isdigit():
            lookup |= Q(pk=int(name))
        found = clubs.filter(lookup).values_list("pk", flat=True).first()
        if found is None:
            raise CommandError(f"No club is named {name!r}.")
        return found
    if default_club_id() is not None and clubs.filter(pk=default_club_id()).exists():
        return default_club_id()
    ids = list(clubs.values_list("pk", flat=True)[:2])
    if len(ids) == 1:
        return ids[0]
    raise CommandError("Say which club with --club (its short name, host or id).")

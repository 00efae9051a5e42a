"""The pages of the demo club a person reads: every public page kind, the table device's pages and
the member's own pages. One list, so the browser's fit test and the language test look at the
same pages. Call after ``build_demo()`` (and the laws import, for the law pages)."""

from dataclasses import dataclass

from clubsite.models import Member
from tournaments.models import (
    RankingScope,
    Result,
    StoredRanking,
    TableCode,
    TeamMatch,
    Tournament,
)
from tournaments.services.table import table_round


@dataclass(frozen=True)
class DemoPages:
    public: list[str]  # anyone
    member: list[str]  # the player "jugador" signed in
    table: list[str]  # a table device of the evening event, signed in with ``table_code``
    table_code: TableCode


def demo_pages() -> DemoPages:
    martes = Tournament.objects.get(slug__endswith="-martes")
    howell = Tournament.objects.get(slug__endswith="howell-del-jueves")
    teams = Tournament.objects.get(slug__endswith="-equipos-de-otono")
    individual = Tournament.objects.get(slug__endswith="individual-de-otono")
    lucia = Member.objects.get(licence_number="AEB-10003")
    mine = StoredRanking.objects.filter(
        scope=RankingScope.SECTION, entry__players=lucia, section__session__tournament=martes
    ).first()
    adjusted = Result.objects.filter(
        section__session__tournament=howell, adjustment__isnull=False
    ).first()
    match = TeamMatch.objects.filter(session__tournament=teams).order_by("pk").first()
    upcoming = Tournament.objects.get(slug__endswith="torneo-de-primavera")
    m = f"/results/{martes.slug}/1"
    public = [
        "/",
        "/laws/",
        "/laws/es-2017/",
        "/laws/es-2017/12/",
        "/laws/search/?q=renuncio",
        "/results/",
        f"/results/{martes.slug}/",
        f"{m}/section/A/",
        f"{m}/board/{mine.section.pool}/1/",
        f"{m}/pair/{mine.entry_id}/",
        f"/results/{howell.slug}/1/board/{adjusted.section.pool}/{adjusted.board.number}/",
        f"/results/{individual.slug}/",
        f"/results/player/{lucia.pk}/",
        "/results/season/",
        f"/results/{teams.slug}/teams/",
        f"/results/{teams.slug}/teams/match/{match.pk}/",
        "/accounts/login/",
        "/table/",
        "/calendar/",
        "/calendar/?when=past",
        f"/calendar/{upcoming.slug}/",
    ]
    member = [
        "/results/me/",
        "/club/me/",
        "/club/money/mine/",
        f"/calendar/{upcoming.slug}/",
        f"/calendar/{upcoming.slug}/enter/",
        f"/calendar/{upcoming.slug}/partner/",
    ]
    evening = Tournament.objects.get(slug__endswith="-tarde")
    table_code = (
        TableCode.objects.filter(section__session__tournament=evening, active=True)
        .order_by("table")
        .first()
    )
    tr = table_round.table_round(table_code)
    table = ["/table/play/", f"/table/play/{tr.round}/{tr.boards[0].board.number}/"]
    return DemoPages(public=public, member=member, table=table, table_code=table_code)

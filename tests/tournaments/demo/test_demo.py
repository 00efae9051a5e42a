"""The demo tournaments: built through the table-device path, and only once."""

import pytest

from tournaments import demo
from tournaments.models import (
    AuditEntry,
    Result,
    SessionStatus,
    StoredRanking,
    TeamMatch,
    Tournament,
    TournamentStatus,
)
from tournaments.services.entries import online_entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def literal_movements(monkeypatch, movements):
    """The demo asks the movements core for a Mitchell and a Howell; these tests give it the
    literal ones so they check the demo, not the generator."""
    monkeypatch.setattr(
        demo,
        "_movements",
        lambda: (movements.mitchell, lambda tables, boards: movements.howell(boards, phantom=None)),
    )


def test_demo_tournaments_are_built_once(demo_club, literal_movements):
    report = demo.build_tournaments()
    assert "6 new" in report
    statuses = dict(Tournament.objects.values_list("name", "status"))
    assert statuses == {
        "Torneo de los martes": TournamentStatus.FINAL,
        "Howell del jueves": TournamentStatus.FINAL,
        "Torneo de la tarde": TournamentStatus.PROVISIONAL,
        "Individual de otoño": TournamentStatus.FINAL,
        "Swiss de equipos de otoño": TournamentStatus.FINAL,
        "Torneo de primavera": TournamentStatus.DRAFT,
    }
    upcoming = Tournament.objects.get(name="Torneo de primavera")
    assert online_entry.places(upcoming) == online_entry.Places(6, 6, 1)
    assert online_entry.open_partner_requests(upcoming).count() == 1
    swiss = Tournament.objects.get(name="Swiss de equipos de otoño")
    matches = TeamMatch.objects.filter(session__tournament=swiss)
    assert matches.count() == 4 * 4 and matches.filter(boards_played=6).count() == 16
    met = [frozenset((m.home_id, m.away_id)) for m in matches]
    assert len(set(met)) == 16  # the Swiss draw avoided every rematch
    assert Result.objects.filter(section__session__tournament=swiss).count() == 4 * 8 * 6
    ranking = StoredRanking.objects.filter(tournament=swiss, scope="event")
    assert ranking.count() == 8 and ranking.filter(place=1).exists()
    mitchell = Tournament.objects.get(name="Torneo de los martes")
    assert mitchell.sessions.get().sections.count() == 2
    assert Result.objects.filter(section__session__tournament=mitchell).count() == 2 * 5 * 5 * 3
    howell = Tournament.objects.get(name="Howell del jueves")
    assert (
        Result.objects.filter(section__session__tournament=howell, adjustment__isnull=False).count()
        == 1
    )
    assert StoredRanking.objects.filter(tournament=howell).count() == 7
    running = Tournament.objects.get(name="Torneo de la tarde").sessions.get()
    assert running.status == SessionStatus.RUNNING
    assert Result.objects.filter(section__session=running).values("round").distinct().count() == 3
    solo = Tournament.objects.get(name="Individual de otoño")
    assert Result.objects.filter(section__session__tournament=solo).count() == 15 * 4 * 2
    assert all(
        r.south_id and r.west_id for r in Result.objects.filter(section__session__tournament=solo)
    )
    ranking = StoredRanking.objects.filter(tournament=solo)
    assert ranking.count() == 16 and ranking.filter(place=1).exists()
    counts = (Tournament.objects.count(), Result.objects.count(), AuditEntry.objects.count())
    assert "0 new" in demo.build_tournaments()
    assert (
        Tournament.objects.count(),
        Result.objects.count(),
        AuditEntry.objects.count(),
    ) == counts

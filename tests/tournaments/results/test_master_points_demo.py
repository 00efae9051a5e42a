"""Master points in the demo club: every kind of final event it builds gets its awards, and
its USEBIO files carry them.

Apart from test_master_points.py, whose tests share a Howell built once for the module: this
test builds the whole demo club itself."""

from tournaments.models import PointsAward, PointsAwarding
from tournaments.services.results import master_points


def stored(tournament):
    return {a.member_id: a.points for a in PointsAward.objects.filter(tournament=tournament)}


def test_the_demo_club_awards_points_in_every_kind_of_final_event(
    demo_club, monkeypatch, movements
):
    from tournaments import demo, documents
    from tournaments.models import Tournament, TournamentStatus

    monkeypatch.setattr(
        demo,
        "_movements",
        lambda: (movements.mitchell, lambda tables, boards: movements.howell(boards, phantom=None)),
    )
    demo.build_tournaments()
    report = demo.build_master_points()
    finals = Tournament.objects.filter(status=TournamentStatus.FINAL)
    assert finals.count() == 4
    for tournament in finals:
        awards = PointsAward.objects.filter(tournament=tournament)
        assert awards.exists(), tournament.name
        assert stored(tournament) == {
            m: a.points for m, a in master_points.compute(tournament).items()
        }
        usebio = documents.export_text(tournament, "usebio")
        assert usebio.count("<MASTER_POINTS_AWARDED>") == awards.count(), tournament.name
    assert PointsAwarding.objects.count() == 4
    assert "17 scale rows" in report
    assert "0 new awards" in demo.build_master_points()  # built once

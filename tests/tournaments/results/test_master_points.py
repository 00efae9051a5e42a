"""Master points: the scale's rules without HTTP, the awards of a final tournament, a
correction re-awarding them, the season's points and the player's page.

The awarding tests share one played Howell and its members, built once for the module inside
a transaction (tests/module_rows.py); the demo club's awards, a build of their own, are in
test_master_points_demo.py."""

import datetime
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.module_rows import module_rows
from tests.tournaments.conftest import build_played_howell, make_members
from tournaments.models import (
    AuditAction,
    AuditEntry,
    EntryPlayer,
    PointsAward,
    PointsAwarding,
    PointsScale,
    PointsScaleRow,
    RankingScope,
    StoredRanking,
    Tournament,
)
from tournaments.services.errors import TournamentError
from tournaments.services.results import master_points, publish, season_ranking
from tournaments.services.results.master_points import Ranked, ScaleRow, award_field, entry_points
from tournaments.services.running import corrections

D = Decimal
PLACES = [ScaleRow("pairs", 1, 20, p, None, D(v)) for p, v in ((1, 6), (2, 4), (3, 2))]
PLACES_BIG = [ScaleRow("pairs", 21, None, p, None, D(v)) for p, v in ((1, 12), (2, 8), (3, 4))]
PERCENT = [
    ScaleRow("pairs", 1, None, None, D(55), D("1.5")),
    ScaleRow("pairs", 1, None, None, D(60), D(3)),
]
SCALE = PLACES + PLACES_BIG + PERCENT


# --- the rules, pure ------------------------------------------------------------------------


def test_a_place_gets_its_rows_points_for_its_field_size():
    assert entry_points(SCALE, "pairs", 10, 1, 1, None) == D(6)
    assert entry_points(SCALE, "pairs", 30, 1, 1, None) == D(12)
    assert entry_points(SCALE, "pairs", 10, 4, 1, None) == D(0)
    assert entry_points(SCALE, "teams", 10, 1, 1, None) == D(0)  # another kind of event


def test_shared_places_share_the_points_of_the_places_they_cover():
    # two pairs equal 2nd: (4 + 2) / 2 each; three equal 1st: (6 + 4 + 2) / 3
    assert entry_points(SCALE, "pairs", 10, 2, 2, None) == D(3)
    assert entry_points(SCALE, "pairs", 10, 1, 3, None) == D(4)


def test_a_percentage_threshold_gives_points_when_better_than_the_place():
    assert entry_points(SCALE, "pairs", 10, 5, 1, D("57.10")) == D("1.5")
    assert entry_points(SCALE, "pairs", 10, 5, 1, D("60.00")) == D(3)
    assert entry_points(SCALE, "pairs", 10, 1, 1, D("61")) == D(6)  # the place is better
    assert entry_points(SCALE, "pairs", 10, 5, 1, D("54.99")) == D(0)


def test_the_points_are_shared_between_the_players_or_given_whole():
    field = [
        Ranked(1, 1, None, (11, 12)),
        Ranked(2, 2, None, (13, 14)),
        Ranked(3, 3, None, (15, 16, 17)),
    ]
    shared = {a.member_id: a.points for a in award_field(SCALE, "pairs", field, True)}
    assert shared == {
        11: D(3),
        12: D(3),
        13: D(2),
        14: D(2),
        15: D("0.67"),
        16: D("0.67"),
        17: D("0.67"),
    }
    whole = {a.member_id: a.points for a in award_field(SCALE, "pairs", field, False)}
    assert whole[11] == D(6) and whole[15] == D(2)


rows_strategy = st.lists(
    st.builds(
        ScaleRow,
        category=st.just("pairs"),
        min_field=st.integers(1, 10),
        max_field=st.one_of(st.none(), st.integers(10, 40)),
        place=st.one_of(st.none(), st.integers(1, 8)),
        min_percentage=st.one_of(st.none(), st.decimals(40, 70, places=2)),
        points=st.decimals(0, 50, places=2),
    ),
    max_size=12,
)


@st.composite
def fields(draw):
    size = draw(st.integers(1, 14))
    marks = draw(st.lists(st.integers(0, 5), min_size=size, max_size=size))
    ordered = sorted(marks, reverse=True)
    out = []
    for i, mark in enumerate(marks):
        place = ordered.index(mark) + 1
        pct = draw(st.one_of(st.none(), st.decimals(30, 75, places=2)))
        out.append(Ranked(i + 1, place, pct, (2 * i + 100, 2 * i + 101)))
    return out


@settings(max_examples=150, deadline=None)
@given(rows=rows_strategy, field=fields(), split=st.booleans())
def test_awards_are_deterministic_and_equal_for_shared_places(rows, field, split):
    first = award_field(rows, "pairs", field, split)
    assert first == award_field(rows, "pairs", list(reversed(field)), split)
    by_entry = {a.entry_id: a.entry_points for a in first}
    places = {r.entry_id: r for r in field}
    for a in first:
        for b in first:
            same_place = places[a.entry_id].place == places[b.entry_id].place
            no_percentage_rows = not any(
                r.min_percentage is not None and r.place is None for r in rows
            )
            if same_place and no_percentage_rows:
                assert by_entry[a.entry_id] == by_entry[b.entry_id]
    for a in first:
        assert a.points > 0
        assert a.points == (
            a.entry_points
            if not split
            else (a.entry_points / 2).quantize(D("0.01"), "ROUND_HALF_UP")
        )


@settings(max_examples=100, deadline=None)
@given(
    rows=rows_strategy.filter(lambda rows: not any(r.min_percentage for r in rows)), field=fields()
)
def test_shared_places_never_give_more_than_the_places_they_cover(rows, field):
    """A field's place points add up to the points of its places 1..n whatever the ties
    (up to the rounding of each share to the hundredth)."""
    size = len(field)
    given_out = sum(
        a.entry_points for a in award_field(rows, "pairs", field, True) if a.member_id % 2 == 0
    )
    places = sum(master_points.place_points(rows, "pairs", size, p) for p in range(1, size + 1))
    assert abs(given_out - places) <= D("0.01") * size


# --- awarding a tournament ------------------------------------------------------------------


@pytest.fixture(scope="module")
def _howell_rows(django_db_setup, django_db_blocker):
    """Sixty members and ``played_howell``'s finished Howell, built once for the module
    (tests/module_rows.py)."""
    with module_rows(django_db_blocker):
        yield build_played_howell(make_members()).pk


@pytest.fixture
def played_howell(_howell_rows, db):
    return Tournament.objects.get(pk=_howell_rows)


@pytest.fixture
def scale(db):
    scale = PointsScale.load()
    scale.name, scale.split = "Escala del club", True
    scale.save()
    for row in SCALE:
        PointsScaleRow.objects.create(
            scale=scale,
            category=row.category,
            min_field=row.min_field,
            max_field=row.max_field,
            place=row.place,
            min_percentage=row.min_percentage,
            points=row.points,
        )
    return scale


def stored(tournament):
    return {a.member_id: a.points for a in PointsAward.objects.filter(tournament=tournament)}


def expected(tournament):
    """Straight from the stored ranking: each pair's places and percentage, by hand."""
    lines = list(StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.SECTION))
    out = {}
    for line in lines:
        sharing = sum(1 for other in lines if other.place == line.place)
        points = entry_points(SCALE, "pairs", len(lines), line.place, sharing, line.percentage)
        if points:
            for member_id in EntryPlayer.objects.filter(entry=line.entry_id).values_list(
                "member_id", flat=True
            ):
                out[member_id] = (points / 2).quantize(D("0.01"), "ROUND_HALF_UP")
    return out


def test_points_need_final_results(scale, played_howell, director):
    with pytest.raises(TournamentError):
        master_points.award(played_howell, user=director)
    assert not PointsAwarding.objects.exists()


def test_the_director_awards_final_results_and_the_audit_trail_says_so(
    scale, played_howell, director
):
    publish.publish_final(played_howell, user=director)
    count = master_points.award(played_howell, user=director)
    assert stored(played_howell) == expected(played_howell)
    assert count == len(expected(played_howell)) > 0
    entry = AuditEntry.objects.get(tournament=played_howell, action=AuditAction.POINTS)
    assert entry.user == director and entry.before is None
    assert sorted(D(v) for v in entry.after.values()) == sorted(expected(played_howell).values())


def test_a_correction_after_the_award_re_awards_and_equals_a_fresh_award(
    scale, played_howell, director, django_capture_on_commit_callbacks
):
    publish.publish_final(played_howell, user=director)
    master_points.award(played_howell, user=director)
    before = stored(played_howell)
    winner = StoredRanking.objects.get(
        tournament=played_howell, scope=RankingScope.SECTION, place=1, tied=False
    ).entry
    with django_capture_on_commit_callbacks(execute=True):
        corrections.add_penalty(
            user=director,
            entry=winner,
            session=played_howell.sessions.get(),
            fraction_of_top=5,
            reason="Llegada tarde",
        )
    after = stored(played_howell)
    assert after != before
    assert after == expected(played_howell)
    assert after == {m: a.points for m, a in master_points.compute(played_howell).items()}
    entries = AuditEntry.objects.filter(tournament=played_howell, action=AuditAction.POINTS)
    assert entries.count() == 2
    last = entries.order_by("-at", "-pk").first()
    assert sorted(D(v) for v in last.before.values()) == sorted(before.values())
    assert PointsAwarding.objects.get(tournament=played_howell).times == 2


def test_results_not_yet_awarded_are_not_awarded_by_a_correction(
    scale, played_howell, director, django_capture_on_commit_callbacks
):
    publish.publish_final(played_howell, user=director)
    winner = StoredRanking.objects.filter(tournament=played_howell).first().entry
    with django_capture_on_commit_callbacks(execute=True):
        corrections.add_penalty(
            user=director,
            entry=winner,
            session=played_howell.sessions.get(),
            fraction_of_top=1,
            reason="Llegada tarde",
        )
    assert not PointsAward.objects.exists()


def test_award_due_waits_for_the_end_of_the_correction_period(scale, played_howell, director):
    publish.publish_final(played_howell, user=director)
    assert master_points.award_due() == []
    later = played_howell.correction_period_ends + datetime.timedelta(minutes=1)
    assert master_points.award_due(later) == [played_howell.pk]
    assert stored(played_howell) == expected(played_howell)
    assert master_points.award_due(later) == []  # once


def test_nothing_is_awarded_by_itself_while_the_scale_is_empty(played_howell, director):
    publish.publish_final(played_howell, user=director)
    later = played_howell.correction_period_ends + datetime.timedelta(minutes=1)
    assert master_points.award_due(later) == []
    assert not PointsAwarding.objects.exists()


def test_the_season_points_add_the_players_awards(scale, played_howell, director):
    from clubsite.models import Season

    publish.publish_final(played_howell, user=director)
    master_points.award(played_howell, user=director)
    ranking = season_ranking.season_points(Season.for_date(played_howell.date), director)
    totals = {row["member"].pk: row["points"] for row in ranking.rows}
    assert totals == expected(played_howell)
    assert [row["points"] for row in ranking.rows] == sorted(totals.values(), reverse=True)
    assert ranking.tournaments == 1


def test_the_usebio_export_carries_each_players_master_points(scale, played_howell, director):
    import xml.etree.ElementTree as ET

    from clubsite.models import Member
    from tournaments import documents

    publish.publish_final(played_howell, user=director)
    master_points.award(played_howell, user=director)
    root = ET.fromstring(documents.export_text(played_howell, "usebio").encode())
    by_licence = {
        Member.objects.get(pk=m).licence_number: p for m, p in stored(played_howell).items()
    }
    seen = {}
    for player in root.iter("PLAYER"):
        licence = player.findtext("NATIONAL_ID_NUMBER")
        awarded = player.findtext("MASTER_POINTS/MASTER_POINTS_AWARDED")
        if awarded is not None:
            seen[licence] = D(awarded)
    assert seen == by_licence and len(seen) > 0
    players = list(root.iter("PLAYER"))
    assert len(players) == 14  # the pairs' players, those without points carry none
    assert sum(1 for p in players if p.find("MASTER_POINTS") is None) == 14 - len(seen)


def test_an_imported_usebio_file_keeps_the_points_it_awarded(
    scale, played_howell, director, django_capture_on_commit_callbacks
):
    from tournaments import documents
    from tournaments.imports import usebio

    publish.publish_final(played_howell, user=director)
    master_points.award(played_howell, user=director)
    text = documents.export_text(played_howell, "usebio")
    PointsScaleRow.objects.update(points=D(100))  # the club's scale is not what the file says
    with django_capture_on_commit_callbacks(execute=True):
        record = usebio.import_file(text, file_name="jueves.xml")
    copy = record.tournament
    assert copy.pk != played_howell.pk
    assert stored(copy) == stored(played_howell)
    assert PointsAwarding.objects.get(tournament=copy).scale_name == "jueves.xml"
    assert (
        master_points.award_due(copy.correction_period_ends + datetime.timedelta(minutes=1)) == []
    )


def test_a_file_with_negative_master_points_is_refused(scale, played_howell, director):
    from tournaments import documents
    from tournaments.imports import usebio
    from tournaments.models import Tournament

    publish.publish_final(played_howell, user=director)
    master_points.award(played_howell, user=director)
    text = documents.export_text(played_howell, "usebio")
    start = text.index("<MASTER_POINTS_AWARDED>") + len("<MASTER_POINTS_AWARDED>")
    bad = text[:start] + "-1" + text[text.index("<", start) :]
    count = Tournament.objects.count()
    from django.utils import translation

    with (
        translation.override("en"),
        pytest.raises(TournamentError, match="Master points must be a number"),
    ):
        usebio.import_file(bad, file_name="mal.xml")
    assert Tournament.objects.count() == count


def test_a_scale_change_shows_which_awards_used_the_earlier_scale(scale, played_howell, director):
    from clubsite.models import Season

    season = Season.for_date(played_howell.date)
    publish.publish_final(played_howell, user=director)
    master_points.award(played_howell, user=director)
    before = stored(played_howell)
    assert master_points.awarded_with_earlier_scale(season) == []
    scale.name = "Renamed"  # a new name gives no other points
    scale.save()
    assert master_points.awarded_with_earlier_scale(season) == []
    first = scale.rows.get(category="pairs", place=1, min_field=1)
    first.points += 10
    first.save()
    assert master_points.awarded_with_earlier_scale(season) == [played_howell]
    assert stored(played_howell) == before  # nothing re-awarded by itself
    master_points.award(played_howell, user=director)  # the director awards again
    assert master_points.awarded_with_earlier_scale(season) == []
    assert sum(stored(played_howell).values()) == sum(before.values()) + 10
    scale.split = False  # sharing changes the points too
    scale.save()
    assert master_points.awarded_with_earlier_scale(season) == [played_howell]
    assert master_points.awarded_with_earlier_scale(season.previous()) == []

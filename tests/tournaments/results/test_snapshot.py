"""The event snapshot: files, PDFs and uploads need nothing else, and nothing can change it.

The first tests build a snapshot by hand, with no database (pytest-django refuses any query
here), and write USEBIO, PBN and the results PDF's body from it. The others build one from a
played demo event: plain data only, a fixed number of queries whatever the size, the
classification brought up to date once per refresh, and the stored match totals as stored.
"""

import dataclasses
import datetime
import xml.etree.ElementTree as ET
from decimal import Decimal

import pytest
from django.db import connection
from django.db.models import Model
from django.test.utils import CaptureQueriesContext
from endplay.parsers import pbn as endplay_pbn

from tests.module_rows import module_rows
from tests.tournaments.conftest import build_dealt_demo_events
from tournaments import jobs
from tournaments.exports import writers
from tournaments.models import Tournament
from tournaments.models.uploads import PdfKind, PdfState, ResultsPdf
from tournaments.pdf import results_html
from tournaments.services.results import snapshot_build
from tournaments.services.results.snapshot import (
    BoardData,
    EventInfo,
    EventSnapshot,
    Line,
    MatchBoard,
    MatchData,
    Participant,
    Player,
    SectionData,
    SessionData,
)

DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
DEAL_2 = "N:T98.765.432.AKQJ AKQJ.T98.765.432 432.AKQJ.T98.765 765.432.AKQJ.T98"


def _pair(entry_id, number, direction, first, second, place, points, pct):
    players = [
        Player(f"{n} Roca", n, "Roca", f"L{entry_id}{i}", False)
        for i, n in enumerate((first, second))
    ]
    return Participant(
        entry_id,
        number,
        direction,
        f"{first} Roca – {second} Roca",
        players,
        place,
        False,
        Decimal(points),
        Decimal(pct),
        2,
    )


def pairs_snapshot() -> EventSnapshot:
    """A Mitchell of two tables, two boards: board 1 played at both tables (one artificial
    score), board 2 still in play at one of them (not public)."""
    ns1, ns2 = (
        _pair(1, 1, "NS", "Ana", "Berta", 1, "3", "75"),
        _pair(2, 2, "NS", "Carla", "Dora", 2, "1", "25"),
    )
    ew1, ew2 = (
        _pair(3, 1, "EW", "Elena", "Fina", 1, "2", "50"),
        _pair(4, 2, "EW", "Gala", "Hebe", 1, "2", "50"),
    )
    board_1 = BoardData(
        1,
        "N",
        "",
        DEAL,
        {"N": {"NT": 9, "S": 10, "H": 7, "D": 6, "C": 5}},
        {"score": 420, "contracts": ["4SN="]},
        [
            Line(
                1,
                1,
                ns1,
                ew1,
                "4S",
                "N",
                "HA",
                10,
                420,
                None,
                Decimal(2),
                Decimal(0),
                Decimal(100),
                Decimal(0),
            ),
            Line(
                1,
                2,
                ns2,
                ew2,
                "",
                "",
                "",
                None,
                None,
                {"kind": "artificial", "ns": "A-", "ew": "A+"},
                Decimal("0.8"),
                Decimal("1.2"),
                Decimal(40),
                Decimal(60),
            ),
        ],
    )
    board_2 = BoardData(
        2,
        "E",
        "NS",
        DEAL_2,
        None,
        None,
        [
            Line(2, 1, ns1, ew2, "3NT", "S", "D5", 8, -50, None, Decimal(1), Decimal(1)),
        ],
        public=False,
    )
    section = SectionData("A", "A", True, 2, [ns1, ns2, ew1, ew2], [board_1, board_2])
    info = EventInfo(
        "2026-11-24-martes",
        "Torneo de los martes",
        datetime.date(2026, 11, 24),
        "Sala principal",
        "pairs",
        "matchpoints",
    )
    return EventSnapshot("Club de Bridge", "C042", info, [SessionData(1, [section], 3)])


def teams_snapshot() -> EventSnapshot:
    """Two teams, one match of one board, both rooms played."""
    home = Participant(
        1,
        1,
        "",
        "Norte",
        [Player("Ana Roca", "Ana", "Roca", "L1", False)],
        1,
        False,
        Decimal("15.5"),
        None,
        1,
    )
    away = Participant(
        2,
        2,
        "",
        "Sur",
        [Player("Berta Roca", "Berta", "Roca", "L2", True)],
        2,
        False,
        Decimal("4.5"),
        None,
        1,
    )
    open_room = Line(1, 1, home, away, "4S", "N", "HA", 10, 420, None, None, None)
    closed_room = Line(1, 2, away, home, "2S", "N", "HA", 9, 140, None, None, None)
    board = BoardData(1, "N", "", DEAL, None, None, [open_room, closed_room])
    section = SectionData("A", "A", False, 2, [home, away], [board])
    match = MatchData(
        1,
        1,
        home,
        away,
        Decimal(7),
        Decimal(0),
        Decimal(0),
        Decimal(7),
        Decimal("15.5"),
        Decimal("4.5"),
        1,
        [MatchBoard(1, open_room, closed_room, Decimal(7), Decimal(-7))],
    )
    info = EventInfo(
        "2026-11-17-equipos",
        "Equipos",
        datetime.date(2026, 11, 17),
        "",
        "teams",
        "vps",
        team_format="round_robin",
        team_unit="vps",
    )
    return EventSnapshot("Club de Bridge", "C042", info, [SessionData(1, [section], 2, [match])])


def test_usebio_is_written_from_a_snapshot_alone():
    root = ET.fromstring(writers.write(pairs_snapshot(), "usebio").split("\n", 2)[2])
    event = root.find("EVENT")
    assert event.get("EVENT_TYPE") == "MP_PAIRS"
    assert event.findtext("RESULTS_VERSION") == "3"
    assert event.findtext("BOARDS_PLAYED") == "2"
    pairs = event.findall("SESSION/SECTION/PARTICIPANTS/PAIR")
    assert [
        (p.findtext("PAIR_NUMBER"), p.findtext("DIRECTION"), p.findtext("PERCENTAGE"))
        for p in pairs
    ] == [("1", "NS", "75"), ("2", "NS", "25"), ("1", "EW", "50"), ("2", "EW", "50")]
    assert [p.findtext("PLAYER_NAME") for p in pairs[0].findall("PLAYER")] == [
        "Ana Roca",
        "Berta Roca",
    ]
    lines = event.findall("SESSION/SECTION/BOARD/TRAVELLER_LINE")
    assert [(t.findtext("SCORE"), t.findtext("NS_MATCH_POINTS")) for t in lines] == [
        ("420", "2"),
        ("A4060", "0.8"),
        ("-50", "1"),
    ]
    north = event.find("HANDSET/BOARD/HAND")
    assert (north.findtext("DIRECTION"), north.findtext("SPADES")) == ("N", "AKQJ")


def test_pbn_is_written_from_a_snapshot_alone():
    games = endplay_pbn.loads(writers.write(pairs_snapshot(), "pbn"))
    assert [g.board_num for g in games] == [1, 2]
    assert games[0].deal.to_pbn() == DEAL
    rows = games[0].info["ScoreTable"]["rows"]
    assert len(rows) == 2 and rows[0][:2] == ["1", "1"]
    assert len(games[0].info["TotalScoreTable"]["rows"]) == 4


def test_the_teams_writers_need_nothing_but_the_snapshot():
    root = ET.fromstring(writers.write(teams_snapshot(), "usebio").split("\n", 2)[2])
    match = root.find("EVENT/SESSION/SECTION/MATCH")
    assert (
        match.findtext("TEAM_IMPS"),
        match.findtext("OPPOSING_TEAM_IMPS"),
        match.findtext("TEAM_SCORE"),
        match.findtext("BOARDS_PLAYED"),
    ) == ("7", "0", "15.5", "1")
    assert [r.findtext("ROOM") for r in match.findall("BOARD/TRAVELLER_LINE")] == ["OPEN", "CLOSED"]
    games = endplay_pbn.loads(writers.write(teams_snapshot(), "pbn"))
    assert [g.info["Room"] for g in games] == ["Open", "Closed"]


def test_the_results_pdf_body_is_rendered_from_a_snapshot_alone():
    html = results_html(pairs_snapshot(), "en")
    assert "Torneo de los martes" in html and "Club de Bridge" in html
    assert "Ana Roca – Berta Roca" in html
    # the first results PDF names no version; a later one counts the corrections the
    # snapshot says readers have seen (versions 1 and 2 had a PDF, this is version 3)
    assert "revision" not in html and "version 3" not in html
    corrected = dataclasses.replace(pairs_snapshot(), pdf_versions=("1", "2", "3"))
    assert "corrected results, revision 2" in results_html(corrected, "en")
    assert "Matchpoints" in html
    # Board 1 is public: its traveller, hand record and par; board 2 is still in play.
    assert html.count("This board is still being played") == 1
    assert html.count('class="mono hands"') == 1 and "AKQJ" in html  # board 1's hands only
    assert "in play" in html  # the scorecards leave board 2's contract out


def test_a_snapshot_cannot_be_changed():
    data = pairs_snapshot()
    section = data.sessions[0].sections[0]
    line = section.boards[0].lines[1]
    with pytest.raises(dataclasses.FrozenInstanceError):
        line.ns_score = 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.sessions[0].version = 4
    with pytest.raises(TypeError):
        line.adjustment["ns"] = "A+"  # a read-only mapping
    with pytest.raises(TypeError):
        section.boards[0].double_dummy["N"]["S"] = 13  # read-only at any depth
    assert isinstance(section.participants, tuple)
    assert isinstance(section.participants[0].players, tuple)  # the list given became a tuple
    assert isinstance(section.boards[0].par["contracts"], tuple)
    assert not hasattr(section.participants, "append")


# --- built from a played event --------------------------------------------------------------


@pytest.fixture(scope="module")
def _played_rows(django_db_setup, django_db_blocker):
    """The demo club's Tuesday and Thursday, every board dealt, built once for the module."""
    with module_rows(django_db_blocker):
        build_dealt_demo_events(8)
        yield


@pytest.fixture
def played(_played_rows, db):
    return {t.name: t for t in Tournament.objects.all()}


def _values(value):
    """Every value held in a snapshot, at any depth."""
    yield value
    if dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            yield from _values(getattr(value, f.name))
    elif isinstance(value, tuple):
        for item in value:
            yield from _values(item)
    elif hasattr(value, "items"):
        for item in value.values():
            yield from _values(item)


@pytest.mark.django_db
def test_a_built_snapshot_holds_plain_data_only(played):
    data = snapshot_build.build_event_snapshot(played["Torneo de los martes"])
    held = list(_values(data))
    assert not [v for v in held if isinstance(v, Model)]
    assert not [v for v in held if isinstance(v, list | dict | set)]
    lines = [ln for s in data.sessions for sec in s.sections for b in sec.boards for ln in b.lines]
    assert len(lines) > 20 and all(ln.ns_mark is not None for ln in lines)


@pytest.mark.django_db
def test_a_snapshot_takes_the_same_queries_whatever_the_size(played):
    counts = {}
    for name, tournament in played.items():
        snapshot_build.bring_current(tournament)
        with CaptureQueriesContext(connection) as queries:
            data = snapshot_build.build_event_snapshot(tournament, classify=False)
        counts[name] = len(queries)
        assert (
            sum(len(b.lines) for s in data.sessions for sec in s.sections for b in sec.boards) > 0
        )
    assert len(set(counts.values())) == 1, counts
    assert max(counts.values()) <= 12


@pytest.mark.django_db
def test_the_pdf_refresh_brings_the_classification_up_to_date_once(
    played, monkeypatch, django_capture_on_commit_callbacks
):
    tournament = played["Torneo de los martes"]
    for language in ("en", "pt"):
        ResultsPdf.objects.create(
            tournament=tournament,
            kind=PdfKind.RESULTS,
            language=language,
            version="0",
            state=PdfState.DONE,
        )
    calls = []
    real = snapshot_build.ensure_current
    monkeypatch.setattr(
        snapshot_build, "ensure_current", lambda session: calls.append(session.pk) or real(session)
    )
    with django_capture_on_commit_callbacks(execute=False):
        made = jobs.refresh_results(tournament)
    assert sorted(pdf.language for pdf in made) == ["en", "es", "pt"]
    assert len(calls) == tournament.sessions.count() == 1

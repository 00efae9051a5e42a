"""USEBIO and PBN for teams and individual events: export, import back, verify.

The events are the demo's finished Swiss teams (8 teams, 4 rounds of 6 boards, one
artificial A+/A score) and its 16-player individual (with a 60/40), built by the demo's
own builders, so the files carry what the club's pages show. They are built once for the
module inside a transaction (tests/module_rows.py), each test in a savepoint of it.
"""

import datetime
import io
import random
import xml.etree.ElementTree as ET
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation
from endplay.parsers import pbn as endplay_pbn

from clubsite.models import Member
from tests.module_rows import module_rows
from tournaments import demo, documents
from tournaments.exports import usebio
from tournaments.exports.deals import random_deal
from tournaments.imports import usebio as usebio_import
from tournaments.imports.usebio_parse import UsebioError
from tournaments.imports.usebio_verify import tried_words
from tournaments.models import (
    Board,
    EntryPlayer,
    EventType,
    RankingScope,
    Result,
    ResultStatus,
    StoredRanking,
    TeamMatch,
    Tournament,
)
from tournaments.models.uploads import ImportState, ResultImport

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 10, 1)


def _players():
    return list(Member.objects.filter(status="active").order_by("licence_number"))


def _deal_everything(tournament, seed):
    rng = random.Random(seed)
    for board in Board.objects.filter(session__tournament=tournament):
        board.deal = random_deal(rng)
        board.save(update_fields=["deal"])


@pytest.fixture(scope="module")
def _events_rows(django_db_setup, django_db_blocker):
    """The demo club, its Swiss teams and its individual, every board dealt: built once for
    the module (tests/module_rows.py)."""
    from clubsite.demo import build_club

    with module_rows(django_db_blocker):
        build_club()
        swiss = demo._swiss_teams(_players(), random.Random(demo.SEED), DAY)
        _deal_everything(swiss, 5)
        individual = demo._individual(_players(), random.Random(demo.SEED), DAY)
        _deal_everything(individual, 6)
        yield {"swiss": swiss.pk, "individual": individual.pk}


@pytest.fixture
def demo_club(_events_rows, db):
    """The demo club as the module built it (its two events too), never built again on top
    of the module's rows."""


@pytest.fixture
def swiss(_events_rows, db):
    return Tournament.objects.get(pk=_events_rows["swiss"])


@pytest.fixture
def individual(_events_rows, db):
    return Tournament.objects.get(pk=_events_rows["individual"])


def _xml(text: str) -> ET.Element:
    return ET.fromstring(text.split("\n", 2)[2])


def _standing(t: Tournament) -> list[tuple]:
    return sorted(
        (r.number, r.names, r.place, r.tied, r.points, r.boards)
        for r in StoredRanking.objects.filter(tournament=t, scope=RankingScope.SECTION)
    )


def _matches(t: Tournament) -> list[tuple]:
    return sorted(
        (
            m.round,
            m.number,
            m.home.name,
            m.away.name if m.away else "",
            m.home_won,
            m.home_lost,
            m.away_won,
            m.away_lost,
            m.home_vp,
            m.away_vp,
            m.boards_played,
        )
        for m in TeamMatch.objects.filter(session__tournament=t).select_related("home", "away")
    )


def test_teams_usebio_carries_teams_matches_rooms_and_standing(swiss):
    root = _xml(documents.export_text(swiss, "usebio"))
    event = root.find("EVENT")
    assert event.get("EVENT_TYPE") == "SWISS_TEAMS"
    assert event.findtext("MATCH_SCORING_METHOD") == "VPS"
    section = event.find("SESSION/SECTION")
    teams = section.findall("PARTICIPANTS/TEAM")
    assert len(teams) == 8
    ranking = {
        r.number: r
        for r in StoredRanking.objects.filter(tournament=swiss, scope=RankingScope.SECTION)
    }
    for team in teams:
        r = ranking[int(team.get("TEAM_ID"))]
        assert team.get("TEAM_NAME") == r.names
        assert Decimal(team.findtext("TOTAL_SCORE")) == r.points
        assert team.findtext("PLACE").rstrip("=") == str(r.place)
        players = team.findall("PLAYER")
        licences = [p.findtext("NATIONAL_ID_NUMBER") for p in players]
        assert licences == list(
            EntryPlayer.objects.filter(entry_id=r.entry_id, active=True)
            .order_by("seat")
            .values_list("member__licence_number", flat=True)
        )
        assert [p.findtext("CAPTAIN") for p in players][:2] == ["Y", None]
    matches = section.findall("MATCH")
    stored = {(m.round, m.number): m for m in TeamMatch.objects.filter(session__tournament=swiss)}
    assert len(matches) == len(stored) == 16
    for el in matches:
        m = stored[(int(el.findtext("ROUND_NUMBER")), int(el.findtext("TABLE_NUMBER")))]
        assert Decimal(el.findtext("TEAM_IMPS")) == m.home_won
        assert Decimal(el.findtext("OPPOSING_TEAM_SCORE")) == m.away_vp
        boards = el.findall("BOARD")
        assert len(boards) == 6
        # Each board: both rooms, and the home team's IMPs add up to its margin.
        assert all(
            [t.findtext("ROOM") for t in b.findall("TRAVELLER_LINE")] == ["OPEN", "CLOSED"]
            for b in boards
        )
        assert sum(Decimal(b.findtext("TEAM_IMPS")) for b in boards) == m.home_margin
    assert len(event.findall("HANDSET/BOARD")) == 24


def test_teams_round_trip_verifies_clean_and_a_tampered_total_is_the_one_difference(swiss):
    text = documents.export_text(swiss, "usebio")
    members = Member.objects.count()
    record = usebio_import.import_file(text, file_name="swiss.xml")
    assert record.state == ImportState.DONE and record.differences == []
    copy = record.tournament
    assert copy.event_type == EventType.TEAMS and copy.team_event.is_swiss
    assert copy.team_event.boards_per_match == 6
    assert record.summary["guests"] == 0 and Member.objects.count() == members
    assert _standing(copy) == _standing(swiss)
    assert _matches(copy) == _matches(swiss)
    adjusted = Result.objects.get(section__session__tournament=copy, adjustment__isnull=False)
    assert adjusted.adjustment == {"kind": "artificial", "ns": "A+", "ew": "A"}
    assert dict(
        Board.objects.filter(session__tournament=copy).values_list("number", "deal")
    ) == dict(Board.objects.filter(session__tournament=swiss).values_list("number", "deal"))

    first = StoredRanking.objects.get(tournament=swiss, scope=RankingScope.SECTION, place=1)
    shown = f"<TOTAL_SCORE>{usebio.number_text(first.points)}</TOTAL_SCORE>"
    assert text.count(shown) == 1
    # the same event (its identifier) written again: it replaces the first import
    tampered = usebio_import.import_file(
        text.replace(shown, "<TOTAL_SCORE>99</TOTAL_SCORE>"),
        file_name="swiss-tampered.xml",
        replace=True,
    )
    assert [(d["what"], d["file"], Decimal(d["ours"])) for d in tampered.differences] == [
        ("total", "99", first.points)
    ]
    # the file's figure is the result of record: the standings show 99, our re-score beside
    again = StoredRanking.objects.get(
        tournament=tampered.tournament, scope=RankingScope.SECTION, number=first.number
    )
    assert again.points == 99 and again.place == first.place
    from tournaments.services.teams import team_standings

    session = tampered.tournament.sessions.get()
    line = next(li for li in team_standings.standings(session) if li.number == first.number)
    assert line.points == 99


def test_a_tampered_match_shows_its_imps_and_vps(swiss):
    text = documents.export_text(swiss, "usebio")
    root = _xml(text)
    match = root.find("EVENT/SESSION/SECTION/MATCH")
    imps = match.findtext("TEAM_IMPS")
    vps = match.findtext("TEAM_SCORE")
    head = text.split("<MATCH>", 1)
    rest = (
        head[1]
        .replace(f"<TEAM_IMPS>{imps}</TEAM_IMPS>", f"<TEAM_IMPS>{Decimal(imps) + 3}</TEAM_IMPS>", 1)
        .replace(f"<TEAM_SCORE>{vps}</TEAM_SCORE>", "<TEAM_SCORE>20</TEAM_SCORE>", 1)
    )
    record = usebio_import.import_file(head[0] + "<MATCH>" + rest, file_name="x.xml")
    assert sorted((d["what"], d["file"]) for d in record.differences) == [
        ("IMPs", str(Decimal(imps) + 3)),
        ("score", "20"),
    ]
    # the file's match is the one of record: its IMPs and VPs are what the pages show
    first = int(match.findtext("ROUND_NUMBER") or 1)
    shown = [
        m
        for m in TeamMatch.objects.filter(session__tournament=record.tournament, round=first)
        if m.home_vp == 20
    ]
    assert len(shown) == 1 and shown[0].home_won == Decimal(imps) + 3


def test_a_malformed_teams_file_imports_nothing_and_lists_every_bad_row(swiss):
    text = documents.export_text(swiss, "usebio")
    tournaments, members = Tournament.objects.count(), Member.objects.count()
    bad = text.replace("<SCORE>980</SCORE>", "<SCORE>lots</SCORE>")
    bad = bad.replace("<OPPOSING_TEAM>2</OPPOSING_TEAM>", "<OPPOSING_TEAM>12</OPPOSING_TEAM>")
    assert bad.count("lots") >= 2
    with pytest.raises(UsebioError) as caught:
        usebio_import.import_file(bad, file_name="bad.xml")
    message = caught.value.message
    assert message.count("lots") == bad.count("lots")
    assert "12" in message
    assert Tournament.objects.count() == tournaments and Member.objects.count() == members
    assert ResultImport.objects.get().state == ImportState.FAILED


def test_individual_usebio_names_four_players_and_round_trips(individual):
    text = documents.export_text(individual, "usebio")
    root = _xml(text)
    event = root.find("EVENT")
    assert event.get("EVENT_TYPE") == "INDIVIDUAL"
    players = event.findall("SESSION/SECTION/PARTICIPANTS/PLAYER")
    assert len(players) == 16 and all(p.findtext("NATIONAL_ID_NUMBER") for p in players)
    lines = event.findall("SESSION/SECTION/BOARD/TRAVELLER_LINE")
    assert (
        len(lines)
        == Result.objects.filter(
            section__session__tournament=individual, status=ResultStatus.OK
        ).count()
    )
    one = (
        Result.objects.filter(section__session__tournament=individual, round=1, table=1)
        .select_related("ns", "south", "ew", "west")
        .order_by("board__number")
        .first()
    )
    numbers = dict(individual.sessions.get().seatings.values_list("entry_id", "number"))
    first = next(
        t for t in lines if t.findtext("ROUND_NUMBER") == "1" and t.findtext("TABLE_NUMBER") == "1"
    )
    assert [
        int(first.findtext(f"{s}_PLAYER_NUMBER")) for s in ("NORTH", "SOUTH", "EAST", "WEST")
    ] == [numbers[one.ns_id], numbers[one.south_id], numbers[one.ew_id], numbers[one.west_id]]

    record = usebio_import.import_file(text, file_name="individual.xml")
    assert record.differences == []
    copy = record.tournament
    assert copy.event_type == EventType.INDIVIDUAL and record.summary["guests"] == 0

    def ranking(t):
        return sorted(
            (r.number, r.place, r.points, r.percentage)
            for r in StoredRanking.objects.filter(tournament=t, scope=RankingScope.SECTION)
        )

    assert ranking(copy) == ranking(individual)

    def seats(t):
        # An adjusted line's file score is the adjustment (the score it replaced stays here).
        rows = Result.objects.filter(section__session__tournament=t).values_list(
            "board__number",
            "round",
            "table",
            "ns__display_name",
            "south__display_name",
            "ew__display_name",
            "west__display_name",
            "ns_score",
            "adjustment",
        )
        return sorted((row[:7] + ((row[8],) if row[8] else (row[7],)) for row in rows), key=str)

    assert seats(copy) == seats(individual)

    top = StoredRanking.objects.get(tournament=individual, scope=RankingScope.SECTION, place=1)
    shown = f"<PERCENTAGE>{usebio.number_text(top.percentage)}</PERCENTAGE>"
    assert text.count(shown) == 1
    tampered = usebio_import.import_file(
        text.replace(shown, "<PERCENTAGE>70</PERCENTAGE>"), replace=True
    )
    assert [(d["what"], d["file"]) for d in tampered.differences] == [("percentage", "70")]


def test_teams_pbn_has_both_rooms_of_every_board_and_loads_in_endplay(swiss):
    games = endplay_pbn.loads(documents.export_text(swiss, "pbn"))
    stored = {b.number: b for b in Board.objects.filter(session__tournament=swiss)}
    assert [(g.board_num, g.info["Room"]) for g in games] == [
        (n, room) for n in sorted(stored) for room in ("Open", "Closed")
    ]
    matches = {
        (m.round, m.number): m
        for m in TeamMatch.objects.filter(session__tournament=swiss).select_related("home", "away")
    }
    for g in games:
        assert g.deal.to_pbn() == stored[g.board_num].deal
        table = g.info["ScoreTable"]
        names = [h["name"] for h in table["headers"]]
        assert len(table["rows"]) == 4  # one table per match in each room
        for row in table["rows"]:
            cells = dict(zip(names, row, strict=True))
            table_number = int(cells["Table"])
            assert table_number % 2 == (1 if g.info["Room"] == "Open" else 0)
            result = Result.objects.get(
                board=stored[g.board_num], table=table_number, status=ResultStatus.OK
            )
            if result.adjustment is None:
                score = result.ns_score
                assert cells["Score_NS" if score >= 0 else "Score_EW"] == str(abs(score))
            m = matches[(result.round, (table_number + 1) // 2)]
            assert int(cells["PairId_NS"]) == (
                swiss.sessions.get().seatings.get(entry=result.ns).number
            )
            assert m.home_id in (result.ns_id, result.ew_id)
    totals = games[0].info["TotalScoreTable"]
    ranking = {
        r.number: r
        for r in StoredRanking.objects.filter(tournament=swiss, scope=RankingScope.SECTION)
    }
    assert len(totals["rows"]) == 8
    for row in totals["rows"]:
        assert Decimal(row[2]) == ranking[int(row[1])].points


def test_individual_pbn_loads_in_endplay_with_four_players_per_line(individual):
    games = endplay_pbn.loads(documents.export_text(individual, "pbn"))
    stored = {b.number: b for b in Board.objects.filter(session__tournament=individual)}
    assert sorted(g.board_num for g in games) == sorted(stored)
    numbers = dict(individual.sessions.get().seatings.values_list("entry_id", "number"))
    for g in games:
        assert g.deal.to_pbn() == stored[g.board_num].deal
        table = g.info["ScoreTable"]
        names = [h["name"] for h in table["headers"]]
        results = Result.objects.filter(board=stored[g.board_num], status=ResultStatus.OK)
        assert len(table["rows"]) == results.count()
        for row in table["rows"]:
            cells = dict(zip(names, row, strict=True))
            r = results.get(round=int(cells["Round"]), table=int(cells["Table"]))
            assert [int(cells[f"PlayerId_{s}"]) for s in "NSEW"] == [
                numbers[r.ns_id],
                numbers[r.south_id],
                numbers[r.ew_id],
                numbers[r.west_id],
            ]
    assert len(min(games, key=lambda g: g.board_num).info["TotalScoreTable"]["rows"]) == 16


def test_commands_export_and_import_teams_and_individual(swiss, individual, tmp_path):
    for tournament in (swiss, individual):
        xml_path, pbn_path = tmp_path / f"{tournament.pk}.xml", tmp_path / f"{tournament.pk}.pbn"
        call_command(
            "export_results",
            tournament.slug,
            "--format",
            "usebio",
            "-o",
            str(xml_path),
            stderr=io.StringIO(),
        )
        call_command(
            "export_results",
            str(tournament.pk),
            "--format",
            "pbn",
            "-o",
            str(pbn_path),
            stderr=io.StringIO(),
        )
        assert endplay_pbn.loads(pbn_path.read_text())
        out = io.StringIO()
        call_command("import_usebio", str(xml_path), "--strict", stdout=out)
        assert Tournament.objects.filter(name=tournament.name).count() == 2
    bad = tmp_path / "bad.xml"
    bad.write_text(
        (tmp_path / f"{swiss.pk}.xml").read_text().replace("<TEAM>1</TEAM>", "<TEAM>x</TEAM>")
    )
    with pytest.raises(CommandError):
        call_command("import_usebio", str(bad), stdout=io.StringIO())


@pytest.mark.parametrize("method", ["vps", "imps"])
def test_a_round_robin_with_a_bye_round_trips_in_vps_and_in_imps(demo_club, method):
    """Three teams, all play all: each round one team has the bye (12 VPs, or 0 IMPs)."""
    from tournaments.services.entries import registration
    from tournaments.services.setup import events as setup
    from tournaments.services.teams import team_events

    tournament = setup.create_tournament(
        name="Liga a tres", date=DAY, event_type=EventType.TEAMS, scoring_method=method
    )
    team_events.configure(
        tournament, format="round_robin", boards_per_match=4, vp_scale="wbf20-discrete"
    )
    players = _players()
    for i, name in enumerate(("Norte", "Sur", "Este")):
        registration.register_entry(tournament, players[4 * i : 4 * i + 4], name=name)
    session = team_events.start_teams(tournament)
    section = session.sections.get()
    demo.deal_from_data(section)
    demo.play_rounds(section, random.Random(3))
    setup.finish_session(session)
    from tournaments.services.classification.classify import classify_tournament

    classify_tournament(tournament)
    text = documents.export_text(tournament, "usebio")
    byes = [m for m in _xml(text).iter("MATCH") if m.find("OPPOSING_TEAM") is None]
    assert len(byes) == 3
    assert {m.findtext("TEAM_SCORE") for m in byes} == ({"12"} if method == "vps" else {"0"})
    record = usebio_import.import_file(text, file_name="liga.xml")
    assert record.differences == []
    copy = record.tournament
    assert copy.team_event.format == "round_robin" and copy.scoring_method == method
    if method == "vps":
        assert copy.team_event.vp_scale == "wbf20-discrete"  # the scale that gives the file's VPs
        # recorded as the file's convention, in words on the report
        assert copy.conventions["vp_scale"] == "wbf20-discrete"
        with translation.override("en"):
            assert "WBF 20-VP scale, whole VPs" in usebio_import.report_text(record)
    assert _standing(copy) == _standing(tournament)
    assert _matches(copy) == _matches(tournament)
    if method == "vps":
        # a match's VPs no scale of ours gives: reported with the scale used and those tried
        first = next(m for m in _xml(text).iter("MATCH") if m.find("OPPOSING_TEAM") is not None)
        vps = first.findtext("TEAM_SCORE")
        changed = text.replace(
            f"<TEAM_SCORE>{vps}</TEAM_SCORE>",
            f"<TEAM_SCORE>{Decimal(vps) + Decimal('0.5')}</TEAM_SCORE>",
            1,
        )
        with translation.override("en"):
            again = usebio_import.import_file(changed, file_name="liga-2.xml", replace=True)
            [diff] = [d for d in again.differences if d["what"] == "score"]
            assert diff["file"] == str(Decimal(vps) + Decimal("0.5")) and diff["ours"] != ""
            tried = tried_words(diff["tried"])
            assert "continuous" in tried and "25-VP" in tried


def test_usebio_refuses_a_knockout_and_pbn_still_writes_it(members, director, tmp_path):
    """A knockout's carry-over, tie-break boards and winners have no place in our USEBIO
    ``MATCH``: the export says so (service, command, federation file) instead of writing a
    file that would read back as another event; PBN carries its deals and both rooms."""
    from tests.tournaments.teams.test_teams_knockout import (
        knockout_event,
        match,
        play_boards,
    )
    from tournaments.models.uploads import FileFormat
    from tournaments.services.errors import TournamentError
    from tournaments.services.teams import team_events

    tournament = knockout_event(members, 4)
    session = team_events.start_teams(tournament)
    play_boards(session, director, match(session, 1, 1), {1: (420, -50), 2: (420, 420)})
    with pytest.raises(TournamentError) as refused:
        documents.export_text(tournament, "usebio")
    assert refused.value.field == "format"
    with pytest.raises(TournamentError):
        documents.build_file(FileFormat.USEBIO, tournament=tournament)
    with pytest.raises(CommandError):
        call_command(
            "export_results", tournament.slug, "--format", "usebio", "-o", str(tmp_path / "cup.xml")
        )
    assert not (tmp_path / "cup.xml").exists()
    text = documents.export_text(tournament, "pbn")
    assert text.count('[Room "Open"]') >= 2 and text.count('[Room "Closed"]') >= 2
    name, _text, _version = documents.build_file(FileFormat.PBN, tournament=tournament)
    assert name.endswith(".pbn")


@pytest.mark.parametrize(
    "kind",
    [
        {"format": "patton", "boards_per_match": 3},
        {"format": "triplicate", "boards_per_match": 3},
        {"format": "round_robin", "scoring": "bam"},
        {"format": "round_robin", "scoring": "total"},
    ],
)
def test_usebio_refuses_events_scored_in_points_or_by_table(members, kind):
    from tests.tournaments.teams.test_teams import make_teams_event
    from tournaments.services.errors import TournamentError
    from tournaments.services.teams import team_events

    tournament = make_teams_event(
        members, 3 if kind["format"] == "triplicate" else 4, fmt="round_robin", boards=4
    )
    team_events.configure(tournament, **kind)
    with pytest.raises(TournamentError):
        documents.export_text(tournament, "usebio")
    team_events.configure(tournament, format="round_robin", scoring="imps", boards_per_match=4)
    assert "<MATCH>" not in documents.export_text(
        tournament, "usebio"
    )  # not started: refused no more, no matches


def test_an_individual_file_keeps_the_artificial_score_it_awarded(individual):
    """Matchpoints as for pairs: the file's 60/40 line written with North-South given 70 % of
    the top is kept as awarded (the conventions say so), so our marks for that line are the
    file's, and the only figures apart are the two North-South players' totals the edit did
    not touch, each off by exactly the points added."""
    text = documents.export_text(individual, "usebio")
    root = _xml(text)
    line = next(t for t in root.iter("TRAVELLER_LINE") if t.findtext("SCORE") == "A6040")
    old_ns, ew = (
        Decimal(line.findtext("NS_MATCH_POINTS")),
        Decimal(line.findtext("EW_MATCH_POINTS")),
    )
    top = old_ns / Decimal("0.6")
    new_ns = top * Decimal("0.7")
    head, tail = text.split("<SCORE>A6040</SCORE>", 1)
    tail = tail.replace(
        f"<NS_MATCH_POINTS>{line.findtext('NS_MATCH_POINTS')}</NS_MATCH_POINTS>",
        f"<NS_MATCH_POINTS>{new_ns.normalize()}</NS_MATCH_POINTS>",
        1,
    )
    record = usebio_import.import_file(
        head + "<SCORE>A6040</SCORE>" + tail, file_name="individual-70.xml"
    )
    copy = record.tournament
    assert copy.conventions.get("artificial") == "awarded"
    kept = Result.objects.get(section__session__tournament=copy, adjustment__kind="artificial")
    assert (Decimal(str(kept.adjustment["ns"])), kept.adjustment["ew"]) == (Decimal(70), 40)
    north_south = {
        int(line.findtext("NORTH_PLAYER_NUMBER")),
        int(line.findtext("SOUTH_PLAYER_NUMBER")),
    }
    totals = [d for d in record.differences if d["what"] == "total"]
    assert {int(d["where"].rsplit(" ", 1)[1]) for d in totals} == north_south
    for d in totals:
        assert Decimal(d["ours"]) - Decimal(d["file"]) == pytest.approx(
            new_ns - old_ns, abs=Decimal("0.01")
        )
    assert not [d for d in record.differences if d["what"].startswith("mark")]
    assert ew == Decimal(line.findtext("EW_MATCH_POINTS"))


def test_a_teams_file_keeps_the_imps_it_awarded_an_artificial_score(swiss):
    """The swiss's A+/A board written by another program as +2 / −1 IMPs instead of the
    roles' +3 / 0: the award is kept (the board's IMPs are the file's) and recorded as the
    file's convention; the match's IMPs the edit left alone are then 1 IMP apart."""
    root = _xml(documents.export_text(swiss, "usebio"))
    board = next(
        b
        for m in root.iter("MATCH")
        for b in m.findall("BOARD")
        if any(t.findtext("SCORE", "").startswith("A") for t in b.findall("TRAVELLER_LINE"))
    )
    home, away = board.find("TEAM_IMPS"), board.find("OPPOSING_TEAM_IMPS")
    assert {home.text, away.text} <= {"3", "0", "-0", "-3"}
    plus_home = Decimal(home.text) > Decimal(away.text)
    home.text, away.text = ("2", "-1") if plus_home else ("-1", "2")
    record = usebio_import.import_file(
        ET.tostring(root, encoding="unicode"), file_name="swiss-otro.xml"
    )
    assert record.tournament.conventions.get("artificial") == "awarded"
    kept = Result.objects.get(
        section__session__tournament=record.tournament, adjustment__isnull=False
    )
    assert {kept.adjustment["ns_imps"], kept.adjustment["ew_imps"]} == {"2", "-1"}
    assert not [d for d in record.differences if d["what"].startswith("board IMPs")]
    imps = [d for d in record.differences if d["what"].startswith("IMPs")]
    assert imps and all(abs(Decimal(d["ours"]) - Decimal(d["file"])) == 1 for d in imps)

"""Demo tournaments played by the demo club, entered the way the table devices enter them.

Six events: a finished two-section Mitchell, a finished Howell with a sit-out and an
adjusted score, one being played tonight, a finished 16-player individual (the course's
position movement) with an artificial score, a finished Swiss teams event (drawn round
by round from the standing, with an artificial adjusted score in IMPs), and next week's
tournament open for online entry (full, with a waiting list and a player wanting a partner). Their boards carry
real deals (``demo.deals``) and the tables play what the deals allow: the field's contract
by double dummy, a trick more or less, now and then another level, a double or the other
side declaring. Every result goes through
``services.entry.submit_result`` with the table's code, so the demo exercises the same path
as the tablets. A seeded generator keeps it the same on every run; existing events (by
slug) are left alone, so running the demo twice changes nothing.
"""

import datetime
import random
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from clubsite.demo import demo_builder
from clubsite.models import Member
from tournaments.services.classification.classify import classify_session
from tournaments.services.entries import registration
from tournaments.services.results import master_points, publish
from tournaments.services.running import corrections
from tournaments.services.setup import events as setup
from tournaments.services.setup import individual, plan
from tournaments.services.table import entry

from ..models import (
    Board,
    EventType,
    PointsScale,
    PointsScaleRow,
    Section,
    TableCode,
    Tournament,
    TournamentStatus,
)
from ..scoring import contract_score, is_vulnerable
from ..scoring.deals import SUITS, hands, opening_leader
from ..services.errors import KeyReused
from . import deals as demo_deals

SEED = 606
STRAINS = ("C", "D", "H", "S", "NT")


def _movements():
    from ..movements import howell, mitchell

    return mitchell, howell


def field_contract(board: Board) -> tuple[str, str, int]:
    """What a good field plays on a dealt board: the side that owns it (par's sign) bids its
    best-scoring makeable contract by double dummy; (contract, declarer, tricks)."""
    side = "NS" if (board.par or {}).get("score", 0) >= 0 else "EW"
    best = None
    for seat in side:
        for strain, tricks in board.double_dummy[seat].items():
            if tricks < 7:
                continue
            contract = f"{tricks - 6}{strain}"
            score = contract_score(contract, tricks, is_vulnerable(board.vulnerability_core, seat))
            if best is None or score > best[0]:
                best = (score, contract, seat, tricks)
    if best is None:
        return "PASS", "", 0
    return best[1], best[2], best[3]


def board_plan(rng: random.Random, board: Board | int) -> tuple[str, str, int]:
    """The field's contract on a board: from its double-dummy table when the board is dealt,
    otherwise (or given only a board number) a plausible invented one."""
    if isinstance(board, Board) and board.deal and board.double_dummy:
        return field_contract(board)
    declarer = rng.choice("NESW")
    kind = rng.random()
    if kind < 0.45:
        level, strain = rng.choice([(3, "NT"), (4, "H"), (4, "S"), (5, "D"), (5, "C")])
    elif kind < 0.9:
        level, strain = rng.randint(1, 3), rng.choice(STRAINS)
    else:
        level, strain = 6, rng.choice(STRAINS)
    tricks = level + 6 + rng.choice((-1, 0, 0, 0, 1, 1))
    return f"{level}{strain}", declarer, max(0, min(13, tricks))


def table_play(
    rng: random.Random, planned: tuple[str, str, int], double_dummy: dict | None = None
) -> dict:
    """One table's result: mostly the field's contract, a trick more or less; sometimes
    another level, a double, or the other side playing it. With the board's double-dummy
    table the tricks follow the actual declarer and strain."""
    contract, declarer, tricks = planned
    roll = rng.random()
    if roll < 0.03 or contract == "PASS":
        return {"contract": "PASS", "declarer": "", "tricks": None}
    if roll < 0.2:
        level = max(1, min(7, int(contract[0]) + rng.choice((-1, 1))))
        contract = f"{level}{contract[1:]}"
    elif roll < 0.27:
        contract += "X"
    elif roll < 0.32:
        declarer = {"N": "E", "E": "S", "S": "W", "W": "N"}[declarer]
    if double_dummy:
        strain = contract[1:].rstrip("X")
        tricks = double_dummy[declarer][strain]
    tricks = max(0, min(13, tricks + rng.choice((-1, 0, 0, 0, 0, 1))))
    return {"contract": contract, "declarer": declarer, "tricks": tricks}


def lead_held(lead: str, deal: str, played: dict) -> str:
    """The demo's lead, made one the opening leader holds (the top card of that suit, or of
    the leader's first suit); none on a passed-out board."""
    if not lead or played["contract"] == "PASS":
        return ""
    try:
        hand = hands(deal).get(opening_leader(played["declarer"]))
    except ValueError:
        hand = None
    if not hand or lead[1] in hand[SUITS.index(lead[0])]:
        return lead
    suit = (
        SUITS.index(lead[0])
        if hand[SUITS.index(lead[0])]
        else next(i for i, cards in enumerate(hand) if cards)
    )
    return SUITS[suit] + hand[suit][0]


def deal_from_data(section: Section) -> int:
    """Give the section's boards the shipped deals with their analysis (see demo.deals)."""
    deals = {d["number"]: d for d in demo_deals.load()}
    boards = list(Board.objects.filter(session_id=section.session_id, pool=section.pool))
    for board in boards:
        found = deals.get(board.number)
        if found:
            board.deal, board.double_dummy, board.par = (
                found["deal"],
                found["double_dummy"],
                found["par"],
            )
    Board.objects.bulk_update(boards, ["deal", "double_dummy", "par"])
    return len(boards)


def play_rounds(
    section: Section,
    rng: random.Random,
    rounds: int | None = None,
    plans: dict | None = None,
    only: int | None = None,
) -> int:
    """Enter every board of the first ``rounds`` rounds (or of round ``only``) from each
    table's device."""
    codes = {c.table: c for c in TableCode.objects.filter(section=section, active=True)}
    plans = plans if plans is not None else {}
    count = 0
    last = rounds or plan.round_count(section.movement)
    boards = {
        b.number: b for b in Board.objects.filter(session_id=section.session_id, pool=section.pool)
    }
    for slot in plan.slots(section.movement):
        if slot.round > last or slot.ns is None or slot.ew is None:
            continue
        if only is not None and slot.round != only:
            continue
        for b in slot.boards:
            number = b + section.board_offset
            board = boards[number]
            planned = plans.setdefault(number, board_plan(rng, board))
            lead = rng.choice(["SA", "HK", "D2", "C7", ""])
            played = table_play(rng, planned, board.double_dummy)
            try:
                outcome = entry.submit_result(
                    table_code=codes[slot.table],
                    round=slot.round,
                    board=number,
                    idempotency_key=f"demo-{section.pk}-{slot.round}-{slot.table}-{number}",
                    lead=lead_held(lead, board.deal, played),
                    **played,
                )
            except KeyReused:
                continue  # played by an earlier call: its key holds that result
            except entry.InvalidResult:
                continue  # a sit-out table: nobody to score
            entry.confirm_result(outcome.result, table_code=codes[slot.table])
            count += 1
    return count


def _pairs(tournament: Tournament, players: list[Member]) -> list:
    return [
        registration.register_entry(tournament, players[i : i + 2])
        for i in range(0, len(players) - 1, 2)
    ]


def _director() -> User | None:
    return User.objects.filter(username="director").first()


def _award_60_40(section: Section, round_: int, table: int) -> None:
    """The director's 60/40 (Law 12C2) on the first board of a table's round."""
    slot = plan.slot_for(section.movement, round_, table)
    corrections.adjust_score(
        user=_director(),
        section=section,
        round=round_,
        table=table,
        board=slot.boards[0] + section.board_offset,
        adjustment={"kind": "artificial", "ns": 60, "ew": 40},
        reason="Información no autorizada: el director no pudo asignar un resultado.",
        law="12C2",
    )


def _two_section_mitchell(players: list[Member], rng: random.Random, day) -> Tournament:
    mitchell, _howell = _movements()
    tournament = setup.create_tournament(
        name="Torneo de los martes", date=day, venue="Sala principal"
    )
    session = tournament.sessions.get()
    pairs = _pairs(tournament, players[:40])
    for index, letter in enumerate("AB"):
        section = setup.add_section(session, letter, pool="A")
        setup.seat_section(section, mitchell(5, 5, 3), pairs[index * 10 : index * 10 + 10])
    deal_from_data(section)
    setup.start_session(session)
    plans: dict = {}
    for section in session.sections.all():
        play_rounds(section, rng, plans=plans)
    setup.finish_session(session)
    publish.publish_final(tournament, user=_director())
    return tournament


def _howell_with_sitout(players: list[Member], rng: random.Random, day) -> Tournament:
    _mitchell, howell = _movements()
    tournament = setup.create_tournament(name="Howell del jueves", date=day, venue="Sala pequeña")
    session = tournament.sessions.get()
    section = setup.add_section(session)
    setup.seat_section(section, howell(4, 3), _pairs(tournament, players[:14]))
    deal_from_data(section)
    setup.start_session(session)
    play_rounds(section, rng)
    first = plan.slot_for(section.movement, 2, 2)
    if first is not None and first.ns is not None and first.ew is not None:
        _award_60_40(section, 2, 2)
    setup.finish_session(session)
    publish.publish_final(tournament, user=_director())
    return tournament


def _in_progress(players: list[Member], rng: random.Random, day) -> Tournament:
    mitchell, _howell = _movements()
    tournament = setup.create_tournament(  # players follow its ranking during play
        name="Torneo de la tarde", date=day, venue="Sala principal", live_ranking=True
    )
    session = tournament.sessions.get()
    section = setup.add_section(session)
    setup.seat_section(section, mitchell(5, 5, 3), _pairs(tournament, players[:20]))
    deal_from_data(section)
    setup.start_session(session)
    play_rounds(section, rng, rounds=3)
    classify_session(session)
    publish.publish_provisional(tournament, user=_director())
    return tournament


def _individual(players: list[Member], rng: random.Random, day) -> Tournament:
    tournament = setup.create_tournament(
        name="Individual de otoño", date=day, venue="Sala pequeña", event_type=EventType.INDIVIDUAL
    )
    session = tournament.sessions.get()
    section = setup.add_section(session)
    entries = [registration.register_entry(tournament, [m]) for m in players[:16]]
    setup.seat_section(section, individual.build_movement(16), entries)
    deal_from_data(section)
    setup.start_session(session)
    play_rounds(section, rng)
    _award_60_40(section, 4, 1)
    setup.finish_session(session)
    publish.publish_final(tournament, user=_director())
    return tournament


def _swiss_teams(players: list[Member], rng: random.Random, day) -> Tournament:
    from tournaments.services.teams import team_events

    from ..models import EventType, ScoringMethod

    tournament = setup.create_tournament(
        name="Swiss de equipos de otoño",
        date=day,
        venue="Sala principal",
        event_type=EventType.TEAMS,
        scoring_method=ScoringMethod.VPS,
    )
    team_events.configure(tournament, format="swiss", swiss_rounds=4, boards_per_match=6)
    names = (
        "Los Ases",
        "Tréboles",
        "Sin Triunfo",
        "Contra y Recontra",
        "Gran Slam",
        "Impasse",
        "Squeeze",
        "Finesse",
    )
    start = 0
    for i, name in enumerate(names):
        size = 5 if i == 0 else 4  # the first team has a fifth player
        registration.register_entry(tournament, players[start : start + size], name=name)
        start += size
    session = team_events.start_teams(tournament)
    section = session.sections.get()
    for round_number in range(1, 5):
        section.refresh_from_db()
        deal_from_data(section)
        play_rounds(section, rng, only=round_number)
        if round_number == 2:  # a board that could not be played: average plus / average
            corrections.adjust_score(
                user=_director(),
                section=section,
                round=2,
                table=3,
                board=8,
                adjustment={"kind": "artificial", "ns": "A+", "ew": "A"},
                reason="Mano inservible; no hubo tiempo de jugar otra.",
                law="12C2",
            )
        if round_number < 4:
            team_events.draw_next_round(tournament, user=_director())
    setup.finish_session(session)
    publish.publish_final(tournament, user=_director())
    return tournament


def _upcoming(players: list[Member], rng: random.Random, day) -> Tournament:
    """Next week's tournament, open for entry: three tables, so the seventh pair waits, and
    a player looking for a partner. The demo's own users (the first three members) have not
    entered, so one can log in and try."""
    from tournaments.services.entries import online_entry

    from ..models import PartnerRequest

    tournament = setup.create_tournament(
        name="Torneo de primavera",
        date=day,
        venue="Sala principal",
        start_time=datetime.time(18, 30),
        online_entry=True,
        max_tables=3,
    )
    start = timezone.now() - datetime.timedelta(days=2)
    for i in range(7):
        online_entry.enter(
            tournament,
            players[3 + 2 * i : 5 + 2 * i],
            user=_director(),
            by_director=True,
            now=start + datetime.timedelta(hours=i),
        )
    PartnerRequest.objects.create(
        tournament=tournament, member=players[17], note="Juego 2/1; cualquier sistema me vale."
    )
    return tournament


@demo_builder("tournaments")
def build_tournaments(only: tuple[str, ...] | None = None) -> str:
    """The demo's events, each built once; ``only`` names the slug endings to build (tests
    that need one Mitchell need not pay for the individual and the Swiss)."""
    rng = random.Random(SEED)
    players = list(Member.objects.filter(status="active").order_by("licence_number"))
    today = timezone.localdate()
    made = []
    events = (
        ("torneo-de-los-martes", _two_section_mitchell, today - datetime.timedelta(days=7)),
        ("howell-del-jueves", _howell_with_sitout, today - datetime.timedelta(days=3)),
        ("torneo-de-la-tarde", _in_progress, today),
        ("individual-de-otono", _individual, today - datetime.timedelta(days=5)),
        ("swiss-de-equipos-de-otono", _swiss_teams, today - datetime.timedelta(days=10)),
        ("torneo-de-primavera", _upcoming, today + datetime.timedelta(days=6)),
    )
    for slug_tail, build, day in events:
        if only is not None and not slug_tail.endswith(only):
            continue
        if Tournament.objects.filter(slug__endswith=slug_tail).exists():
            continue
        with transaction.atomic():
            made.append(build(players, rng, day))
    boards = Board.objects.filter(session__tournament__slug__endswith="-martes").count()
    return (
        f"tournaments: {Tournament.objects.count()} ({len(made)} new), "
        f"{boards} boards in the Mitchell"
    )


# The demo club's master points scale: the club's own, shared between partners.
DEMO_SCALE = (
    # event, field from, up to, place, from percentage, points
    ("pairs", 1, 10, 1, None, "4"),
    ("pairs", 1, 10, 2, None, "3"),
    ("pairs", 1, 10, 3, None, "2"),
    ("pairs", 1, 10, 4, None, "1"),
    ("pairs", 11, None, 1, None, "6"),
    ("pairs", 11, None, 2, None, "5"),
    ("pairs", 11, None, 3, None, "4"),
    ("pairs", 11, None, 4, None, "3"),
    ("pairs", 11, None, 5, None, "2"),
    ("pairs", 11, None, 6, None, "1"),
    ("pairs", 1, None, None, "60", "1.5"),
    ("individual", 1, None, 1, None, "3"),
    ("individual", 1, None, 2, None, "2"),
    ("individual", 1, None, 3, None, "1"),
    ("teams", 1, None, 1, None, "8"),
    ("teams", 1, None, 2, None, "6"),
    ("teams", 1, None, 3, None, "4"),
)


@demo_builder("master points")
def build_master_points() -> str:
    """The club's scale, and the points of every final demo tournament awarded by the
    director (as after the correction period)."""
    scale = PointsScale.load()
    if not scale.rows.exists():
        scale.name = "Puntos del club"
        scale.save()
        PointsScaleRow.objects.bulk_create(
            PointsScaleRow(
                scale=scale,
                category=kind,
                min_field=low,
                max_field=high,
                place=place,
                min_percentage=Decimal(pct) if pct else None,
                points=Decimal(points),
            )
            for kind, low, high, place, pct, points in DEMO_SCALE
        )
    awarded = 0
    for tournament in Tournament.objects.filter(
        status=TournamentStatus.FINAL, points_awarding__isnull=True
    ):
        awarded += master_points.award(tournament, user=_director())
    return f"master points: {scale.rows.count()} scale rows, {awarded} new awards"


# Table money is built after the tournaments it charges (its builder registers last).
from . import money as demo_money  # noqa: E402, F401

"""Demo tournaments played by the demo club, entered the way the table devices enter them.

Four events: a finished two-section Mitchell, a finished Howell with a sit-out and an
adjusted score, one being played tonight, and a finished 16-player individual (the course's
position movement) with an artificial score. Every result goes through
``services.entry.submit_result`` with the table's code, so the demo exercises the same path
as the tablets. A seeded generator keeps it the same on every run; existing events (by
slug) are left alone, so running the demo twice changes nothing.
"""

import datetime
import random

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from clubsite.demo import demo_builder
from clubsite.models import Member

from .models import Board, EventType, Section, TableCode, Tournament
from .services import entry, individual, plan, publish, setup
from .services.classification import classify_session

SEED = 606
STRAINS = ("C", "D", "H", "S", "NT")


def _movements():
    from .movements import howell, mitchell

    return mitchell, howell


def board_plan(rng: random.Random, number: int) -> tuple[str, str, int]:
    """What the field tends to play on a board: (contract, declarer, tricks)."""
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


def table_play(rng: random.Random, planned: tuple[str, str, int]) -> dict:
    """One table's result: mostly the field's contract, a trick more or less; sometimes
    another contract, a double, or the other side playing it."""
    contract, declarer, tricks = planned
    roll = rng.random()
    if roll < 0.03:
        return {"contract": "PASS", "declarer": "", "tricks": None}
    if roll < 0.2:
        level = max(1, min(7, int(contract[0]) + rng.choice((-1, 1))))
        contract = f"{level}{contract[1:]}"
    elif roll < 0.27:
        contract += "X"
    elif roll < 0.32:
        declarer = {"N": "E", "E": "S", "S": "W", "W": "N"}[declarer]
    tricks = max(0, min(13, tricks + rng.choice((-1, 0, 0, 0, 1))))
    return {"contract": contract, "declarer": declarer, "tricks": tricks}


def play_rounds(section: Section, rng: random.Random, rounds: int | None = None,
                plans: dict | None = None) -> int:
    """Enter every board of the first ``rounds`` rounds from each table's device."""
    codes = {c.table: c for c in TableCode.objects.filter(section=section, active=True)}
    plans = plans if plans is not None else {}
    count = 0
    last = rounds or plan.round_count(section.movement)
    for slot in plan.slots(section.movement):
        if slot.round > last or slot.ns is None or slot.ew is None:
            continue
        for b in slot.boards:
            number = b + section.board_offset
            planned = plans.setdefault(number, board_plan(rng, number))
            try:
                outcome = entry.submit_result(
                    table_code=codes[slot.table], round=slot.round, board=number,
                    idempotency_key=f"demo-{section.pk}-{slot.round}-{slot.table}-{number}",
                    lead=rng.choice(["SA", "HK", "D2", "C7", ""]), **table_play(rng, planned))
            except entry.InvalidResult:
                continue  # a sit-out table: nobody to score
            entry.confirm_result(outcome.result, table_code=codes[slot.table])
            count += 1
    return count


def _pairs(tournament: Tournament, players: list[Member]) -> list:
    return [setup.register_entry(tournament, players[i:i + 2])
            for i in range(0, len(players) - 1, 2)]


def _director() -> User | None:
    return User.objects.filter(username="director").first()


def _two_section_mitchell(players: list[Member], rng: random.Random, day) -> Tournament:
    mitchell, _howell = _movements()
    tournament = setup.create_tournament(name="Torneo de los martes", date=day,
                                         venue="Sala principal")
    session = tournament.sessions.get()
    pairs = _pairs(tournament, players[:40])
    for index, letter in enumerate("AB"):
        section = setup.add_section(session, letter, pool="A")
        setup.seat_section(section, mitchell(5, 5, 3), pairs[index * 10:index * 10 + 10])
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
    setup.start_session(session)
    play_rounds(section, rng)
    first = plan.slot_for(section.movement, 2, 2)
    if first is not None and first.ns is not None and first.ew is not None:
        entry.adjust_score(
            user=_director(), section=section, round=2, table=2,
            board=first.boards[0] + section.board_offset,
            adjustment={"kind": "artificial", "ns": 60, "ew": 40},
            reason="Información no autorizada: el director no pudo asignar un resultado.",
            law="12C2",
        )
    setup.finish_session(session)
    publish.publish_final(tournament, user=_director())
    return tournament


def _in_progress(players: list[Member], rng: random.Random, day) -> Tournament:
    mitchell, _howell = _movements()
    tournament = setup.create_tournament(name="Torneo de la tarde", date=day,
                                         venue="Sala principal")
    session = tournament.sessions.get()
    section = setup.add_section(session)
    setup.seat_section(section, mitchell(5, 5, 3), _pairs(tournament, players[:20]))
    setup.start_session(session)
    play_rounds(section, rng, rounds=3)
    classify_session(session)
    publish.publish_provisional(tournament, user=_director())
    return tournament


def _individual(players: list[Member], rng: random.Random, day) -> Tournament:
    tournament = setup.create_tournament(name="Individual de otoño", date=day,
                                         venue="Sala pequeña", event_type=EventType.INDIVIDUAL)
    session = tournament.sessions.get()
    section = setup.add_section(session)
    entries = [setup.register_entry(tournament, [m]) for m in players[:16]]
    setup.seat_section(section, individual.build_movement(16), entries)
    setup.start_session(session)
    play_rounds(section, rng)
    slot = plan.slot_for(section.movement, 4, 1)
    entry.adjust_score(
        user=_director(), section=section, round=4, table=1,
        board=slot.boards[0] + section.board_offset,
        adjustment={"kind": "artificial", "ns": 60, "ew": 40},
        reason="Información no autorizada: el director no pudo asignar un resultado.",
        law="12C2",
    )
    setup.finish_session(session)
    publish.publish_final(tournament, user=_director())
    return tournament


@demo_builder("tournaments")
def build_tournaments() -> str:
    rng = random.Random(SEED)
    players = list(Member.objects.filter(status="active").order_by("licence_number"))
    today = timezone.localdate()
    made = []
    events = (
        ("torneo-de-los-martes", _two_section_mitchell, today - datetime.timedelta(days=7)),
        ("howell-del-jueves", _howell_with_sitout, today - datetime.timedelta(days=3)),
        ("torneo-de-la-tarde", _in_progress, today),
        ("individual-de-otono", _individual, today - datetime.timedelta(days=5)),
    )
    for slug_tail, build, day in events:
        if Tournament.objects.filter(slug__endswith=slug_tail).exists():
            continue
        with transaction.atomic():
            made.append(build(players, rng, day))
    boards = Board.objects.filter(session__tournament__slug__endswith="-martes").count()
    return (f"tournaments: {Tournament.objects.count()} ({len(made)} new), "
            f"{boards} boards in the Mitchell")

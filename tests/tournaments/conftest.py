"""Tournament fixtures: registered pairs from the demo club, and movements as stored dicts.

The movements are literal test data in the shape of ``Movement.to_dict()`` (the shape the
services rely on), so these tests do not depend on the generator's internals.
"""

import datetime
import random
from types import SimpleNamespace

import pytest

from clubsite.celery import app as celery_app
from clubsite.models import Member
from tournaments.demo import play_rounds
from tournaments.models import PointsScale, PointsScaleRow, ScoringMethod, Section
from tournaments.services.entries import registration
from tournaments.services.results import publish
from tournaments.services.setup import events as setup
from tournaments.tasks import classify_session_task


def mitchell_dict(tables: int, rounds: int, boards_per_round: int) -> dict:
    """An odd-table Mitchell as C03 describes it: EW move up, boards move down."""
    out = []
    for r in range(1, rounds + 1):
        rows = []
        for t in range(1, tables + 1):
            ew = (t - 1 - (r - 1)) % tables + 1
            board_set = (t - 1 + (r - 1)) % tables + 1
            first = (board_set - 1) * boards_per_round + 1
            rows.append(
                {
                    "table": t,
                    "ns": t,
                    "ew": ew,
                    "boards": list(range(first, first + boards_per_round)),
                }
            )
        out.append({"round": r, "tables": rows})
    return {"kind": "mitchell", "tables": tables, "rounds": out, "sitout": None}


# A complete 8-pair Howell (circle method; table offsets 0, 2, 4, 1 give every pair every
# board set once and four different sets per round). With seven pairs, 8 is the phantom.
HOWELL_OFFSETS = (0, 2, 4, 1)


def howell_dict(boards_per_round: int = 3, phantom: int | None = 8) -> dict:
    out = []
    for r in range(7):
        rows = [{"table": 1, "ns": 8, "ew": r + 1}]
        for k in (1, 2, 3):
            rows.append({"table": k + 1, "ns": (r + k) % 7 + 1, "ew": (r - k) % 7 + 1})
        for k, row in enumerate(rows):
            board_set = (r + HOWELL_OFFSETS[k]) % 7
            first = board_set * boards_per_round + 1
            row["boards"] = list(range(first, first + boards_per_round))
        out.append({"round": r + 1, "tables": rows})
    return {"kind": "howell", "tables": 4, "rounds": out, "sitout": phantom}


def build_demo_events(*names: str) -> None:
    """The demo club and its tournaments ``names`` (``demo.build_tournaments``), seated on
    this file's movements, as ``demo_club`` and ``movements`` build them for one test; for
    a module's shared rows (``tests/module_rows.py``)."""
    from clubsite.demo import build_club
    from tournaments import demo

    def movements():
        return mitchell_dict, lambda tables, boards: howell_dict(boards, phantom=None)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(demo, "_movements", movements)
        build_club()
        demo.build_tournaments(only=names)


def build_dealt_demo_events(seed: int) -> None:
    """The demo's Tuesday Mitchell and Thursday Howell (``build_demo_events``), every board
    given a random deal drawn with ``seed``."""
    from tournaments.exports.deals import random_deal
    from tournaments.models import Board

    build_demo_events("martes", "jueves")
    rng = random.Random(seed)
    for board in Board.objects.all():
        board.deal = random_deal(rng)
        board.save(update_fields=["deal"])


@pytest.fixture
def movements():
    """``movements.mitchell(tables, rounds, boards)`` and ``movements.howell(boards, phantom)``."""
    return SimpleNamespace(mitchell=mitchell_dict, howell=howell_dict)


@pytest.fixture
def pairs():
    """``pairs(tournament, members, count)``: register ``count`` pairs of consecutive members."""
    return make_pairs


@pytest.fixture
def members(db):
    """Sixty members, alternating women and men, licence numbers in order."""
    return make_members()


def make_members() -> list[Member]:
    return [
        Member.objects.create(
            first_name=f"Nombre{i:02d}",
            last_name=f"Apellido{i:02d}",
            licence_number=f"T-{i:03d}",
            gender="FM"[i % 2],
        )
        for i in range(60)
    ]


def play_rounds_before(section, table: int, round_number: int, user) -> None:
    """The director stores 3NT= by South on every board ``table`` plays before ``round_number``,
    so that round is open to the table (``services.play_order``)."""
    from tournaments.services.setup import plan
    from tournaments.services.table import entry

    for slot in plan.slots(section.movement):
        if slot.table == table and slot.round < round_number:
            for board in slot.boards:
                entry.submit_result(
                    user=user,
                    section=section,
                    table=table,
                    round=slot.round,
                    board=board + section.board_offset,
                    contract="3NT",
                    declarer="S",
                    tricks=9,
                    idempotency_key=f"before-{table}-{slot.round}-{board}",
                )


def make_pairs(tournament, members, count):
    return [
        registration.register_entry(tournament, members[2 * i : 2 * i + 2]) for i in range(count)
    ]


@pytest.fixture
def mitchell_session(members):
    """A running 7-table Mitchell, 7 rounds of 2 boards, 14 registered pairs."""
    return build_mitchell_session(members)


def build_mitchell_session(members):
    tournament = setup.create_tournament(
        name="Martes", date=datetime.date(2025, 3, 4), scoring_method=ScoringMethod.MATCHPOINTS
    )
    session = tournament.sessions.get()
    section = setup.add_section(session)
    setup.seat_section(section, mitchell_dict(7, 7, 2), make_pairs(tournament, members, 14))
    setup.start_session(session)
    return section


@pytest.fixture(scope="module")
def shared_mitchell_rows(django_db_setup, django_db_blocker):
    """``members`` and the running Mitchell of ``mitchell_session`` seated on them, built once
    for each module that asks (tests/module_rows.py): the section's id."""
    from tests.module_rows import module_rows

    with module_rows(django_db_blocker):
        yield build_mitchell_session(make_members()).pk


def shared_mitchell():
    """``members, mitchell_session = shared_mitchell()`` at a module's top: both fixtures read
    afresh for each test from rows built once for the module, instead of built again."""

    @pytest.fixture
    def members(shared_mitchell_rows, db):
        return list(
            Member.objects.filter(licence_number__startswith="T-").order_by("licence_number")
        )

    @pytest.fixture
    def mitchell_session(shared_mitchell_rows, db):
        return Section.objects.get(pk=shared_mitchell_rows)

    return members, mitchell_session


@pytest.fixture
def howell_session(members):
    """A running Howell for seven pairs (pair 8 is the phantom), 7 rounds of 3 boards."""
    return build_howell_session(members)


def build_howell_session(members):
    tournament = setup.create_tournament(name="Jueves", date=datetime.date(2025, 3, 6))
    session = tournament.sessions.get()
    section = setup.add_section(session)
    setup.seat_section(section, howell_dict(), make_pairs(tournament, members, 7))
    setup.start_session(session)
    return section


@pytest.fixture
def played_howell(members):
    """A Howell of seven pairs today, every round played (seeded) and the session finished:
    not published, no master points yet (the master points tests start from it)."""
    return build_played_howell(members)


def build_played_howell(members):
    """``played_howell``'s tournament, for a fixture of any scope."""
    tournament = setup.create_tournament(
        name="Jueves", date=datetime.date.today(), public_results=True
    )
    session = tournament.sessions.get()
    section = setup.add_section(session)
    setup.seat_section(section, howell_dict(), make_pairs(tournament, members, 7))
    setup.start_session(session)
    play_rounds(section, random.Random(4))
    setup.finish_session(session)
    return tournament


@pytest.fixture
def three_places_scale(db):
    """The club's pairs scale paying the first three places 6, 4 and 2 points."""
    scale = PointsScale.load()
    for place, points in ((1, 6), (2, 4), (3, 2)):
        PointsScaleRow.objects.create(
            scale=scale, category="pairs", min_field=1, place=place, points=points
        )
    return scale


@pytest.fixture
def broker(settings, monkeypatch):
    """As in production: tasks go to a broker (recorded here, not run), a 5-second window."""
    settings.RANKING_REFRESH_SECONDS = 5
    settings.RANKING_QUIET_SECONDS = 0  # the window alone (test_ranking_debounce: the pause)
    celery_app.conf.task_always_eager = False  # the autouse _celery_mode fixture restores it
    queued = []

    def apply_async(args=None, kwargs=None, countdown=None, **options):
        queued.append((tuple(args), countdown))

    monkeypatch.setattr(classify_session_task, "apply_async", apply_async)
    return queued


@pytest.fixture
def shown(mitchell_session):
    """The running Mitchell after two rounds, published as provisional (so classified);
    players follow its ranking during play."""
    return build_shown(mitchell_session)


@pytest.fixture(scope="module")
def shared_shown_rows(django_db_setup, django_db_blocker):
    """``members`` and the Mitchell of ``shown`` on them, built once for each module that
    asks (tests/module_rows.py): the section's id."""
    from tests.module_rows import module_rows

    with module_rows(django_db_blocker):
        yield build_shown(build_mitchell_session(make_members())).pk


def shared_shown():
    """``shown = shared_shown()`` at a module's top: ``shown`` read afresh for each test from
    rows built once for the module."""

    @pytest.fixture
    def shown(shared_shown_rows, db):
        return Section.objects.get(pk=shared_shown_rows)

    return shown


def build_shown(mitchell_session):
    """``shown``, for a fixture of any scope."""
    play_rounds(mitchell_session, random.Random(11), rounds=2)
    tournament = mitchell_session.session.tournament
    tournament.live_ranking = True
    tournament.save(update_fields=["live_ranking"])
    publish.publish_provisional(tournament, user=None)
    return mitchell_session

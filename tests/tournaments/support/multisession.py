"""Multi-session pairs tournaments for the tests: session 1 seated as Mitchell sections,
sessions played through the table devices' entry service and seated from the previous one."""

import datetime
import random

from tournaments.demo import play_rounds
from tournaments.models import Seating, Session
from tournaments.movements import mitchell
from tournaments.services.classification import classify as classification
from tournaments.services.setup import events as setup
from tournaments.services.setup import seating as session_seating


def make_event(
    members, pairs, *, sessions, sections, tables, rounds=1, boards=2, count=None, name="Open"
):
    """A pairs tournament whose session 1 is seated as ``sections`` Mitchells of ``tables``."""
    tournament = setup.create_tournament(
        name=name, date=datetime.date(2025, 5, 6), sessions=sessions
    )
    entries = pairs(tournament, members, count or 2 * tables * sections)
    first = tournament.sessions.get(number=1)
    movement = mitchell(tables, rounds, boards).to_dict()
    for i in range(sections):
        section = setup.add_section(first, "ABC"[i], board_offset=0)
        setup.seat_section(section, movement, entries[i * 2 * tables : (i + 1) * 2 * tables])
    return tournament, entries


def play(session: Session, seed: int = 1) -> None:
    """Every result of the session through the table devices; then the director finishes."""
    setup.start_session(session)
    rng = random.Random(seed)
    for section in session.sections.order_by("letter"):
        play_rounds(section, rng)
    setup.finish_session(session)
    classification.classify_session(session)


def seat(session: Session, method: str, director, **options):
    planned = session_seating.plan_seating(session, method, **options)
    session_seating.apply_seating(planned, user=director)
    return planned


def places(session: Session) -> dict[int, tuple[str, int, str]]:
    return {
        s.entry_id: (s.section.letter, s.number, s.direction)
        for s in Seating.objects.filter(session=session).select_related("section")
    }

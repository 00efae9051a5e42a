"""Generated pairs sessions for the property tests (the incremental classification, the
USEBIO and PBN round trips): the strategy drawing a session's shape, and its section seated."""

from __future__ import annotations

import datetime

from hypothesis import strategies as st

from clubsite.models import Member
from tournaments.models import Section
from tournaments.movements import howell, mitchell
from tournaments.services.entries import registration
from tournaments.services.setup import events as setup


@st.composite
def pair_session_specs(draw) -> dict:
    """A small Mitchell (3 to 5 tables, two rounds or more) or Howell (5 to 8 pairs: an odd
    count has a phantom, so sit-outs), one or two boards a round, scored in matchpoints,
    Butler or cross-IMPs, with the seed its play is drawn from."""
    if draw(st.sampled_from(["mitchell", "howell"])) == "mitchell":
        tables = draw(st.integers(min_value=3, max_value=5))
        rounds = draw(st.integers(min_value=2, max_value=mitchell(tables).round_count))
        movement = mitchell(tables, rounds, draw(st.integers(min_value=1, max_value=2)))
        pairs = 2 * tables
    else:
        pairs = draw(st.integers(min_value=5, max_value=8))
        movement = howell(pairs=pairs, boards_per_round=draw(st.integers(min_value=1, max_value=2)))
    return {
        "movement": movement.to_dict(),
        "pairs": pairs,
        "method": draw(st.sampled_from(["matchpoints", "butler", "cross_imps"])),
        "seed": draw(st.integers(min_value=0, max_value=2**32 - 1)),
    }


def seated_section(spec: dict, *, name: str, licences: str) -> Section:
    """The tournament of ``spec`` with its pairs (new members, licences ``<licences>-000``…)
    seated in its section; the session not started yet."""
    members = [
        Member.objects.create(
            first_name=f"Nombre{i:02d}",
            last_name=f"Apellido{i:02d}",
            licence_number=f"{licences}-{i:03d}",
        )
        for i in range(2 * spec["pairs"])
    ]
    tournament = setup.create_tournament(
        name=name, date=datetime.date(2025, 5, 6), scoring_method=spec["method"]
    )
    section = setup.add_section(tournament.sessions.get())
    setup.seat_section(
        section,
        spec["movement"],
        [
            registration.register_entry(tournament, members[2 * i : 2 * i + 2])
            for i in range(spec["pairs"])
        ],
    )
    return section

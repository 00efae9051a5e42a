"""The movement a director picks for a section: a Mitchell or Howell built by the core, a
Mitchell's phantom, one Mitchell split into two pools, and the summary the set-up page shows.
"""

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import Entry, Seating, Section
from tournaments.services.errors import TournamentError
from tournaments.services.setup import plan
from tournaments.services.setup.events import add_section, seat_section

# No 0/O, 1/I/L, 2/Z, 5/S, 8/B, 6/G: codes are read off a card and typed on a phone.


def most_rounds(kind: str, tables: int, pairs: int | None = None, even: str = "skip") -> int | None:
    """The most rounds a Mitchell or Howell of this size plays (the core's course rules), or
    ``None`` if that kind cannot seat it: a Mitchell needs 3 tables, a Howell at most
    ``MAX_HOWELL_TABLES``."""
    from tournaments.movements.howell import MAX_HOWELL_TABLES
    from tournaments.movements.mitchell import max_mitchell_rounds

    if kind == "mitchell":
        return max_mitchell_rounds(tables, even) if tables >= 3 else None  # type: ignore[arg-type]
    if kind == "howell":
        seats = pairs + pairs % 2 if pairs else 2 * tables
        return seats - 1 if 4 <= seats <= 2 * MAX_HOWELL_TABLES else None
    return None


def kinds_for(tables: int, pairs: int | None = None) -> list[str]:
    """The kinds the hand-chosen form may offer for a field of this size."""
    return [k for k in ("mitchell", "howell") if most_rounds(k, tables, pairs) is not None]


def check_numbers(
    kind: str, tables: int | None, rounds: int | None, pairs: int | None = None, even: str = "skip"
) -> None:
    """Refuse, in the director's language, numbers the core would refuse with its own
    (English, developer's) reason: a Mitchell under 3 tables, a Howell too large, rounds
    outside what the movement plays."""
    from tournaments.movements.howell import MAX_HOWELL_TABLES

    if kind == "mitchell":
        if tables is None:
            raise TournamentError(_("Say how many tables."), "tables")
        most = most_rounds(kind, tables, even=even)
        if most is None:
            raise TournamentError(
                _("A Mitchell needs at least 3 tables; for 4 pairs choose a Howell."), "tables"
            )
        if rounds is not None and not 1 <= rounds <= most:
            why = (
                _(
                    "A Mitchell on %(tables)s tables plays 1 to %(most)s rounds (an even "
                    "number of tables skips once, after half the rounds)."
                )
                if tables % 2 == 0 and even == "skip"
                else _("A Mitchell on %(tables)s tables plays 1 to %(most)s rounds.")
            )
            raise TournamentError(why % {"tables": tables, "most": most}, "rounds")
    elif kind == "howell":
        most = most_rounds(kind, tables or 0, pairs)
        if most is None:
            raise TournamentError(
                _("A Howell seats 4 to %(most)s pairs; choose a Mitchell.")
                % {"most": 2 * MAX_HOWELL_TABLES},
                "tables",
            )
        if rounds is not None and not 1 <= rounds <= most:
            raise TournamentError(
                _("A Howell for %(pairs)s pairs plays 1 to %(most)s rounds.")
                % {"pairs": pairs or 2 * (tables or 0), "most": most},
                "rounds",
            )


def build_movement(
    kind: str,
    *,
    tables: int | None = None,
    rounds: int | None = None,
    boards_per_round: int = 2,
    pairs: int | None = None,
    **options,
) -> dict:
    """A movement from the core as the stored dict: ``kind`` "mitchell" or "howell", with an
    advice's ``call`` or the director's own numbers (``pairs`` places the phantom).

    Numbers the core refuses are refused here first, in the director's language
    (``check_numbers``); the core's own reason, written for developers in English, is never
    shown."""
    import logging

    from tournaments.movements import MovementError, howell, mitchell

    try:
        if kind == "mitchell":
            if tables is None:
                raise TournamentError(_("Say how many tables."), "tables")
            if pairs is not None and not 2 * tables - 1 <= pairs <= 2 * tables:
                pairs = None
            check_numbers(kind, tables, rounds, pairs, options.get("even", "skip"))
            movement = mitchell(
                tables,
                rounds,
                boards_per_round,
                pairs=pairs,
                even=options.get("even", "skip"),
                phantom=options.get("phantom"),
            )
        elif kind == "howell":
            check_numbers(kind, tables, rounds, pairs)
            movement = howell(
                None if pairs else tables, boards_per_round, pairs=pairs, rounds=rounds
            )
        else:
            raise TournamentError(_("Choose a Mitchell or a Howell here."), "kind")
    except MovementError as exc:
        logging.getLogger(__name__).info("movement refused: %s", exc)
        raise TournamentError(
            _(
                "This movement is not possible with these numbers: check the "
                "tables, rounds and boards per round."
            ),
            "movement",
        ) from exc
    return movement.to_dict()


def mitchell_phantom(section: Section) -> str | None:
    """The one empty place of a Mitchell section with a half table ("6NS"), so a new number
    of rounds keeps the relay where the seating put it (a serpentine puts it mid-field)."""
    taken = set(Seating.objects.filter(section=section).values_list("number", "direction"))
    empty = [
        f"{t}{line}"
        for t in range(1, section.tables + 1)
        for line in ("NS", "EW")
        if (t, line) not in taken
    ]
    return empty[0] if len(empty) == 1 else None


def split_pools(movement: dict) -> dict[str, dict]:
    """A pools Mitchell from the core (tables tagged "A", "B") as one movement per section.

    Each section keeps the whole movement's notes, so the round-1 duplication of the boards
    (C03 l.99) still shows on its cards."""
    letters = sorted({t.get("section", "") for r in movement["rounds"] for t in r["tables"]})
    out = {}
    for letter in letters:
        part = {k: v for k, v in movement.items() if k not in ("rounds", "design")}
        part["rounds"] = [
            {
                **r,
                "tables": [t for t in r["tables"] if t.get("section", "") == letter],
                "sitout": [p for p in r.get("sitout") or [] if str(p).startswith(letter)],
            }
            for r in movement["rounds"]
        ]
        out[letter] = part
    return out


@transaction.atomic
def seat_two_pools(section: Section, call: dict, entries: Sequence[Entry]) -> list[Section]:
    """Seat a field as two Mitchell sections playing the same boards (the advice's "two
    pools"): ``section`` and the session's next section on its pool, created if missing.

    Entries alternate between the sections in the order given, so pairs registered one
    after the other (often of similar strength) do not all land in one section."""
    from tournaments.movements import MovementError, mitchell

    try:
        movement = mitchell(
            call["tables"],
            call.get("rounds"),
            call.get("boards_per_round", 2),
            even=call.get("even", "skip"),
            sections=2,
        ).to_dict()
    except (MovementError, KeyError) as exc:
        raise TournamentError(
            _(
                "This movement is not possible with these numbers: check the "
                "tables, rounds and boards per round."
            ),
            "movement",
        ) from exc
    parts = list(split_pools(movement).values())
    session = section.session
    others = [
        s
        for s in session.sections.exclude(pk=section.pk).order_by("letter")
        if s.pool == section.pool and not s.seatings.exists()
    ]
    second = others[0] if others else add_section(session, pool=section.pool)
    entries = list(entries)
    seat_section(section, parts[0], entries[0::2])
    seat_section(second, parts[1], entries[1::2])
    return [section, second]


def movement_summary(movement: dict) -> dict:
    """Kind, tables, rounds and boards per round of a stored movement, for the pages."""
    from tournaments.services.setup.advice import kind_label

    return {
        "kind": movement.get("kind", ""),
        "kind_label": kind_label(movement.get("kind", "")),
        "tables": plan.table_count(movement),
        "rounds": plan.round_count(movement),
        "boards_per_round": plan.boards_per_round(movement),
        "boards": len(plan.plays_per_board(movement)),
    }

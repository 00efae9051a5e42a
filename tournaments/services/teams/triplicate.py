"""The course's team movements beyond the round robin: the Patton evening and the 3-team
triplicate (C03 l.185-195, l.211-236), laid out as ordinary stored movements (their start;
a triplicate is scored in ``triplicate_scores``).

Patton: ``movements.teams.patton`` gives each round's matches at tables 2m-1 (open room, home
team NS) and 2m (closed room), the same layout as every teams event, so only its matches are
read from it; the scoring is ``teams_scoring``'s Patton points.

Triplicate: three teams of two pairs, pairs numbered 1-6 (A = 1 & 2, B = 3 & 6, C = 4 & 5),
four rounds at three tables playing the same boards at once (``movements.teams.triplicate``).
The stored movement is numbered by team (a team has one pair NS and one EW each round, so the
team and the line name the pair) and each table keeps its pair numbers for the pages. Each
round has one ``TeamMatch`` per table (number = table, home = the NS team, away = the EW team)
that stores the IMPs of the table's NS pair (home) and EW pair (away). The course scores each
board by comparing the tables two by two, 1 v 2, 1 v 3 and 2 v 3: in table i v table j the NS
pair of i and the EW pair of j are partners against the NS pair of j and the EW pair of i,
and each pair gets its side's IMPs; a team's score is the sum of its two pairs' IMPs.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from tournaments.models import Entry, Seating, Session, TeamEvent, TeamMatch
from tournaments.movements.teams import patton, triplicate
from tournaments.services.errors import TournamentError
from tournaments.services.setup import events as setup
from tournaments.services.teams.triplicate_scores import TEAM_OF_PAIR

# --- Patton ---------------------------------------------------------------------------------


def patton_rounds(teams: int, boards: int, method: str) -> list[tuple[int, list, int | None]]:
    """The rounds of the course's Patton movement as (round, [(home, away)], bye)."""
    movement = patton(teams, boards, method)
    out = []
    for rnd in movement.rounds:
        pairs = [(int(t.ns[:-1]), int(t.ew[:-1])) for t in rnd.tables if t.table % 2]
        bye = int(rnd.sitout[0][:-1]) if rnd.sitout else None
        out.append((rnd.number, pairs, bye))
    return out


# --- triplicate: the movement ---------------------------------------------------------------


def triplicate_movement(boards: int) -> dict:
    """The stored movement (pure): per round and table the NS and EW team and their pairs."""
    movement = triplicate(boards)
    rounds = []
    for rnd in movement.rounds:
        rounds.append(
            {
                "round": rnd.number,
                "bye": None,
                "tables": [
                    {
                        "table": t.table,
                        "ns": TEAM_OF_PAIR[t.ns],
                        "ew": TEAM_OF_PAIR[t.ew],
                        "ns_pair": t.ns,
                        "ew_pair": t.ew,
                        "boards": list(t.boards),
                        "match": t.table,
                        "room": "triplicate",
                    }
                    for t in rnd.tables
                ],
            }
        )
    return {
        "kind": "triplicate",
        "numbering": "team",
        "tables": 3,
        "teams": 3,
        "boards_per_round": boards,
        "rounds": rounds,
    }


def start_triplicate(
    session: Session, event: TeamEvent, teams: Sequence[Entry], *, user=None
) -> Session:
    """Seat the three teams (A, B, C in registration order), store the course's movement,
    one match row per table and round, issue the table codes and open the session."""
    if len(teams) != 3:
        raise TournamentError(_("A triplicate is for exactly three teams."))
    k = event.boards_per_match
    section = session.sections.order_by("letter").first() or setup.add_section(session, "A")
    Seating.objects.filter(session=session).delete()
    Seating.objects.bulk_create(
        Seating(session=session, section=section, entry=e, number=i, direction="")
        for i, e in enumerate(teams, start=1)
    )
    section.movement = triplicate_movement(k)
    section.tables = 3
    section.save(update_fields=["movement", "tables"])
    session.rounds, session.boards_per_round = 4, k
    session.save(update_fields=["rounds", "boards_per_round"])
    by_number = dict(enumerate(teams, start=1))
    TeamMatch.objects.bulk_create(
        TeamMatch(
            session=session,
            round=rnd["round"],
            number=t["table"],
            home=by_number[t["ns"]],
            away=by_number[t["ew"]],
        )
        for rnd in section.movement["rounds"]
        for t in rnd["tables"]
    )
    setup.ensure_boards(section)
    setup.issue_table_codes(section)
    return setup.start_session(session, user=user)


# --- triplicate: scoring --------------------------------------------------------------------

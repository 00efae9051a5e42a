"""Importing a USEBIO individual file as a finished individual tournament.

Each section's movement is rebuilt from its travellers: every line names its round, its
table and its four players (North, South, East, West), which is what an individual
movement stores (``plan.Slot.players``). Players are entries of one member each (matched
by licence, guests otherwise) holding the file's player numbers; a result keeps North in
``ns``, East in ``ew`` and South and West in ``south``/``west``. Its conventions are the
pairs' matchpoint ones that apply to players (places shared, artificial scores kept as the
file awarded them). A player's ``HANDICAP`` makes the event ranked with handicaps, the
player's being the entry's (as a pair's is, ``usebio_pairs``). The pairs verify then
applies unchanged: each player's total, percentage and place (on the file's handicap
terms, ``usebio_handicaps``), and each line's marks.
"""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.services.entries import registration
from tournaments.services.setup import events as setup

from ..models import Board, Entry, EventType, Result, Tournament
from ..scoring import methods
from ..services.errors import TournamentError
from .usebio_conventions import detect, field_boards, file_top
from .usebio_pairs import awarded
from .usebio_parse import FileEvent, FileSection, UsebioError
from .usebio_save import (
    People,
    finish,
    pair_key,
    pools_of,
    result_fields,
    result_reason,
    save_deals,
    save_results,
)


def individual_movement(fs: FileSection) -> dict:
    """The stored movement of the section's travellers: who sat where at each table."""
    tables: dict[tuple[int, int], dict] = {}
    for number, lines in sorted(fs.boards.items()):
        for line in lines:
            where = _("Section %(section)s, board %(board)s") % {
                "section": fs.letter,
                "board": number,
            }
            if not line.round or not line.table or line.south is None or line.west is None:
                raise UsebioError(
                    _(
                        "%(where)s: an individual line needs its round, its table "
                        "and its four players."
                    )
                    % {"where": where}
                )
            seats = {"north": line.ns, "south": line.south, "east": line.ew, "west": line.west}
            slot = tables.setdefault(
                (line.round, line.table), {"table": line.table, **seats, "boards": []}
            )
            if any(slot[k] != v for k, v in seats.items()):
                raise UsebioError(
                    _(
                        "%(where)s: table %(table)s of round %(round)s seats "
                        "other players on another board."
                    )
                    % {"where": where, "table": line.table, "round": line.round}
                )
            slot["boards"].append(number)
    rounds: dict[int, list[dict]] = defaultdict(list)
    for (rnd, _table), slot in sorted(tables.items()):
        rounds[rnd].append(slot)
    per_round = max((len(t["boards"]) for t in tables.values()), default=0)
    return {
        "kind": "individual",
        "tables": max((t["table"] for t in tables.values()), default=0),
        "boards_per_round": per_round,
        "rounds": [{"round": r, "tables": ts} for r, ts in sorted(rounds.items())],
    }


@transaction.atomic
def import_individual(
    event: FileEvent, *, user=None, file_name: str = ""
) -> tuple[Tournament, dict]:
    tournament = setup.create_tournament(
        name=event.name,
        date=event.date,
        venue=event.venue,
        event_type=EventType.INDIVIDUAL,
        sessions=event.session_count,
        user=user,
    )
    # matchpoints as for pairs: shared places, artificial scores as the file awarded them
    conventions = detect(event)
    Tournament.objects.filter(pk=tournament.pk).update(conventions=conventions)
    tournament.conventions = conventions
    tops = {
        id(line): file_top(line for ls in boards.values() for line in ls) or 0
        for boards in field_boards(event, per_section=False)
        for ls in boards.values()
        for line in ls
    }
    sessions = {s.number: s for s in tournament.sessions.all()}
    people = People(event)
    entries: dict[tuple, Entry] = {}
    pools = pools_of(event.sections)
    notes: list[dict] = []
    rows = []
    made = []
    for i, fs in enumerate(event.sections):
        section = setup.add_section(sessions[fs.session], fs.letter, pool=pools[i])
        movement = individual_movement(fs)
        numbered: dict[int, Entry] = {}
        for player in fs.pairs:
            key = pair_key(player)
            if key not in entries:
                try:
                    entries[key] = registration.register_entry(
                        tournament, [people.member(player.players[0])]
                    )
                except TournamentError as exc:
                    raise UsebioError(
                        _("Player %(number)s: %(problem)s")
                        % {"number": player.number, "problem": exc.message}
                    ) from exc
                if player.handicap is not None:  # a handicap event: ranked with them too
                    Entry.objects.filter(pk=entries[key].pk).update(handicap=player.handicap)
            numbered[player.number] = entries[key]
        seated = {
            n
            for t in (s for r in movement["rounds"] for s in r["tables"])
            for n in (t["north"], t["south"], t["east"], t["west"])
        }
        try:
            setup.seat_section(
                section,
                movement,
                [numbered[n] for n in sorted(seated)],
                assignments=[(numbered[n], n, "") for n in sorted(seated)],
            )
        except TournamentError as exc:
            raise UsebioError(exc.message) from exc
        made.append((section, fs, numbered))
    if any(p.handicap is not None for fs in event.sections for p in fs.pairs):
        Tournament.objects.filter(pk=tournament.pk).update(handicap_ranking=True)
        tournament.handicap_ranking = True
    save_deals(tournament, event.deals, event.conditions)
    for section, fs, numbered in made:
        boards = {
            b.number: b for b in Board.objects.filter(session=section.session, pool=section.pool)
        }
        for number, lines in fs.boards.items():
            for line in lines:
                where = _(
                    "Section %(section)s, board %(board)s, round %(round)s, table %(table)s"
                ) % {
                    "section": fs.letter,
                    "board": number,
                    "round": line.round,
                    "table": line.table,
                }
                data = result_fields(boards[number], line, notes, where)
                if (
                    conventions.get("artificial")
                    and line.adjustment
                    and line.adjustment.get("kind") == "artificial"
                ):
                    data["adjustment"] = awarded(line, methods.MATCHPOINTS.code, tops[id(line)])
                rows.append(
                    Result(
                        section=section,
                        board=boards[number],
                        round=line.round,
                        table=line.table,
                        ns=numbered[line.ns],
                        ew=numbered[line.ew],
                        south=numbered[line.south],
                        west=numbered[line.west],
                        entered_by=user,
                        confirmed=True,
                        reason=result_reason(file_name),
                        **data,
                    )
                )
    save_results(rows)
    finish(tournament, user=user, file_name=file_name, points=people.points)
    summary = {
        "event": event.name,
        "program": event.program,
        "club": event.club_name,
        "sessions": event.session_count,
        "sections": len(event.sections),
        "players": len(entries),
        "pairs": len(entries),
        "members": len(people.matched),
        "guests": len(people.guests),
        "boards": len({(s.session, n) for s in event.sections for n in s.boards}),
        "lines": len(rows),
        "deals": len(event.deals),
        "conventions": conventions,
    }
    return tournament, {"summary": summary, "notes": notes}

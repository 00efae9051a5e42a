"""Importing a pairs event of a USEBIO file: who met whom (rounds and tables rebuilt from the
travellers when the file lacks them, a Howell's sit-outs given back), the sections seated on
that movement, and the lines written as the director's results."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.services.entries import registration
from tournaments.services.setup import events as setup

from ..models import Board, Entry, EntryPlayer, Result, Tournament
from ..scoring import methods
from ..services.errors import TournamentError
from .usebio_conventions import (
    detect,
    event_top,
    field_boards,
    per_section,
)
from .usebio_parse import FileEvent, FileLine, FileSection, UsebioError
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


@dataclass
class Meeting:
    round: int
    table: int
    ns: int
    ew: int
    boards: list[int]


def meetings(section: FileSection) -> list[Meeting]:
    """Who met whom on which boards, with a round and a table for each meeting.

    The file's ROUND_NUMBER/TABLE_NUMBER are used when every line has them and they are
    consistent; otherwise rounds are rebuilt so no pair plays twice in a round.
    """
    lines = [(n, line) for n, ls in section.boards.items() for line in ls]
    given: dict[tuple[int, int], Meeting] = {}
    consistent = all(line.round and line.table for _n, line in lines)
    for number, line in lines if consistent else ():
        m = given.setdefault(
            (line.round, line.table), Meeting(line.round, line.table, line.ns, line.ew, [])
        )
        if (m.ns, m.ew) != (line.ns, line.ew):
            consistent = False
            break
        m.boards.append(number)
    if consistent:
        return sorted(given.values(), key=lambda m: (m.round, m.table))
    pairs: dict[tuple[int, int], list[int]] = defaultdict(list)
    for number, line in lines:
        pairs[(line.ns, line.ew)].append(number)
    busy: dict[int, set[tuple[int, str]]] = defaultdict(set)
    out = []
    for (ns, ew), boards in sorted(pairs.items(), key=lambda kv: (min(kv[1]), kv[0])):
        rnd = 1
        while (
            (ns, "NS") in busy[rnd]
            or (ew, "EW") in busy[rnd]
            or (
                not section.directional
                and ({(ns, "NS"), (ns, "EW"), (ew, "NS"), (ew, "EW")} & busy[rnd])
            )
        ):
            rnd += 1
        busy[rnd] |= {(ns, "NS"), (ew, "EW")}
        table = sum(1 for m in out if m.round == rnd) + 1
        out.append(Meeting(rnd, table, ns, ew, sorted(boards)))
    return sorted(out, key=lambda m: (m.round, m.table))


def sitouts(section: FileSection, plays: list[Meeting]) -> list[Meeting]:
    """The sit-outs of a Howell for an odd number of pairs, rebuilt from its travellers.

    A file has no line for the pair that sits out a round, yet the scorer counted that
    table: each board was meant to be played once more than it was (Neuberg fills the
    gap) and the pair sitting out gets its own average on the set it missed (C03 l.746).
    Each such pair is given back a meeting with an absent pair (a number nobody holds), at
    the table number the round does not use (or one more table), on the one set of boards
    it never plays and nobody plays that round. Only when the file gives rounds and every
    piece is unambiguous: otherwise nothing is added and the figures stand as they are.
    """
    if section.directional or not plays or not all(m.round for m in plays):
        return []
    numbers = {p.number for p in section.pairs}
    per_round = {len(m.boards) for m in plays}
    if len(per_round) != 1:
        return []
    size = per_round.pop()
    rounds: dict[int, list[Meeting]] = defaultdict(list)
    played_by: dict[int, set[int]] = defaultdict(set)
    for m in plays:
        rounds[m.round].append(m)
        played_by[m.ns].update(m.boards)
        played_by[m.ew].update(m.boards)
    all_boards = set(section.boards)
    tables = max(m.table for m in plays)
    phantom = max(numbers, default=0) + 1
    out = []
    for rnd, meetings_ in sorted(rounds.items()):
        seated = {n for m in meetings_ for n in (m.ns, m.ew)}
        in_play = {b for m in meetings_ for b in m.boards}
        missing = sorted(numbers - seated)
        if len(missing) != 1:
            continue
        pair = missing[0]
        missed = sorted(all_boards - played_by[pair] - in_play)
        if len(missed) != size:
            continue
        used = {m.table for m in meetings_}
        free = [t for t in range(1, tables + 1) if t not in used]
        out.append(Meeting(rnd, free[0] if free else tables + 1, pair, phantom, missed))
    return out if len(out) == len(rounds) else []


def movement_for(section: FileSection, plays: list[Meeting]) -> dict:
    directional = section.directional
    rounds: dict[int, list[dict]] = defaultdict(list)
    for m in plays:
        rounds[m.round].append(
            {
                "table": m.table,
                "ns": f"{m.ns}NS" if directional else m.ns,
                "ew": f"{m.ew}EW" if directional else m.ew,
                "boards": sorted(m.boards),
            }
        )
    return {
        "kind": "imported",
        "numbering": "directional" if directional else "pairs",
        "tables": max((m.table for m in plays), default=0),
        "rounds": [
            {"round": r, "tables": sorted(t, key=lambda x: x["table"])}
            for r, t in sorted(rounds.items())
        ],
        "sitout": None,
    }


# --- the import -----------------------------------------------------------------------------


@transaction.atomic
def import_event(event: FileEvent, *, user=None, file_name: str = "") -> tuple[Tournament, dict]:
    """Create the tournament from parsed data; returns it and the import summary."""
    tournament = setup.create_tournament(
        name=event.name,
        date=event.date,
        venue=event.venue,
        scoring_method=event.scoring_method,
        sessions=event.session_count,
        user=user,
    )
    conventions = detect(event)
    Tournament.objects.filter(pk=tournament.pk).update(conventions=conventions)
    tournament.conventions = conventions
    sessions = {s.number: s for s in tournament.sessions.all()}
    people = People(event)
    entries: dict[tuple, Entry] = {}
    pools = pools_of(event.sections, per_section(conventions))
    tops = _file_tops(event)
    pair_entry: dict[tuple[int, str], Entry] = {}  # (section index, "3NS") → entry
    made = []
    for i, fs in enumerate(event.sections):
        session = sessions[fs.session]
        section = setup.add_section(session, fs.letter, pool=pools[i])
        plays = meetings(fs)
        movement = movement_for(fs, plays + sitouts(fs, plays))
        assignments = []
        for pair in fs.pairs:
            key = pair_key(pair)
            entry = entries.get(key)
            if entry is None:
                try:
                    entry = registration.register_entry(
                        tournament, [people.member(p) for p in pair.players]
                    )
                except TournamentError as exc:
                    raise UsebioError(
                        _("Pair %(number)s: %(problem)s")
                        % {"number": pair.number, "problem": exc.message}
                    ) from exc
                entries[key] = entry
                if pair.handicap is not None:  # a handicap event: ranked with them too
                    Entry.objects.filter(pk=entry.pk).update(handicap=pair.handicap)
                    for seat, player in enumerate(pair.players, start=1):
                        if player.handicap is not None:  # given per player: kept so
                            EntryPlayer.objects.filter(entry=entry, seat=seat, active=True).update(
                                handicap=player.handicap
                            )
            pair_entry[(i, f"{pair.number}{pair.direction}")] = entry
            assignments.append((entry, pair.number, pair.direction))
        numbers = {(m.ns, "NS" if fs.directional else "") for m in plays} | {
            (m.ew, "EW" if fs.directional else "") for m in plays
        }
        assignments = [a for a in assignments if (a[1], a[2]) in numbers]
        setup.seat_section(section, movement, [a[0] for a in assignments], assignments=assignments)
        made.append((section, fs, plays))
    if any(p.handicap is not None for fs in event.sections for p in fs.pairs):
        Tournament.objects.filter(pk=tournament.pk).update(handicap_ranking=True)
        tournament.handicap_ranking = True
    deals = event.deals
    save_deals(tournament, deals, event.conditions)
    notes: list[dict] = []
    rows = []
    for section, fs, plays in made:
        i = event.sections.index(fs)
        boards = {
            b.number: b for b in Board.objects.filter(session=section.session, pool=section.pool)
        }
        slot = {(m.ns, m.ew, b): m for m in plays for b in m.boards}
        for number, lines in fs.boards.items():
            for line in lines:
                where = _("Section %(section)s, board %(board)s, %(ns)s v %(ew)s") % {
                    "section": fs.letter,
                    "board": number,
                    "ns": line.ns,
                    "ew": line.ew,
                }
                m = slot[(line.ns, line.ew, number)]
                ns = pair_entry[(i, f"{line.ns}{'NS' if fs.directional else ''}")]
                ew = pair_entry[(i, f"{line.ew}{'EW' if fs.directional else ''}")]
                data = result_fields(boards[number], line, notes, where)
                if (
                    conventions.get("artificial")
                    and line.adjustment
                    and line.adjustment.get("kind") == "artificial"
                ):
                    data["adjustment"] = awarded(line, event.scoring_method, tops[id(line)])
                rows.append(
                    Result(
                        section=section,
                        board=boards[number],
                        round=m.round,
                        table=m.table,
                        ns=ns,
                        ew=ew,
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
        "pairs": len(entries),
        "members": len(people.matched),
        "guests": len(people.guests),
        "boards": len({(s.session, n) for s in event.sections for n in s.boards}),
        "lines": len(rows),
        "deals": len(deals),
        "conventions": conventions,
    }
    return tournament, {"summary": summary, "notes": notes}


def awarded_percentages(line: FileLine, top: Fraction) -> dict | None:
    """An artificial line's adjustment with the points the file awarded, as percentages of
    the top (exact: ``"425/7"`` when not a decimal), or None when the code's own
    percentages (``A6040``) already give them."""
    if top <= 0 or line.ns_mark is None or line.ew_mark is None:
        return None
    adjustment = dict(line.adjustment or {})
    changed = False
    for side, mark in (("ns", line.ns_mark), ("ew", line.ew_mark)):
        value = Fraction(mark) * 100 / top
        if value == Fraction(str(adjustment.get(side))):
            continue
        changed = True
        if value.denominator == 1:
            adjustment[side] = value.numerator
        else:
            as_decimal = Decimal(value.numerator) / Decimal(value.denominator)
            adjustment[side] = (
                format(as_decimal.normalize(), "f") if Fraction(as_decimal) == value else str(value)
            )
    return adjustment if changed else None


def awarded(line, method: str, top) -> dict:
    """An artificial line's adjustment keeping what the file awarded: matchpoints as
    percentages of the top, IMPs (Butler, cross-IMPs) as given."""
    if methods.method(method).is_matchpoints:
        return awarded_percentages(line, top) or line.adjustment
    if line.ns_mark is None or line.ew_mark is None:
        return line.adjustment
    return {**line.adjustment, "ns_imps": str(line.ns_mark), "ew_imps": str(line.ew_mark)}


def _file_tops(event: FileEvent) -> dict[int, Decimal]:
    """id(line) → the top of the line's field as the file writes it (artificial awards are
    read as percentages of it)."""
    out = {}
    for boards in field_boards(event, per_section=False):
        top = event_top(event, [line for ls in boards.values() for line in ls]) or 0
        for ls in boards.values():
            for line in ls:
                out[id(line)] = top
    return out

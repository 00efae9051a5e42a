"""Importing a USEBIO 1.2 file as a finished tournament, then checking its figures.

The file becomes a tournament like any other: sections with a movement rebuilt from the
travellers (round and table when the file gives them, otherwise from who met whom),
entries whose players are members found by licence number (anyone else becomes a guest,
found again by licence or name next time), boards with the file's deals, and the results
as the director's entries (the file's score prevails over its contract, as on a paper
traveller). Sections of a session with the same boards are scored together (one pool).

Then our scoring core scores it (``services.classification``) and ``verify`` lists every
figure where the file and we disagree beyond the file's own rounding: pair totals,
percentages, places, each line's marks, and scores that do not match their contract. All of
it happens in one transaction: a file that fails anywhere leaves nothing behind but a
refused ``ResultImport`` saying why.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.models import Member

from ..models import (
    AuditAction,
    AuditEntry,
    Board,
    Entry,
    RankingScope,
    Result,
    ScoringMethod,
    Section,
    SessionStatus,
    StoredMark,
    StoredRanking,
    Tournament,
    TournamentStatus,
)
from ..models.uploads import ImportState, ResultImport
from ..scoring import board_conditions
from ..services import entry as entry_service
from ..services import registration, setup
from ..services.classification import classify_tournament
from ..services.errors import TournamentError
from ..services.team_schedule import TEAM_METHODS
from .usebio_conventions import (
    alternatives,
    awarded_percentages,
    describe,
    detect,
    event_top,
    field_boards,
    full_set,
    raw_mark,
)
from .usebio_parse import FileEvent, FileLine, FilePair, FilePlayer, FileSection, UsebioError, parse

__all__ = ["AlreadyImported", "UsebioError", "import_file", "import_event", "report_text"]


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
        m = given.setdefault((line.round, line.table),
                             Meeting(line.round, line.table, line.ns, line.ew, []))
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
        while (ns, "NS") in busy[rnd] or (ew, "EW") in busy[rnd] or (
                not section.directional and ({(ns, "NS"), (ns, "EW"), (ew, "NS"), (ew, "EW")}
                                             & busy[rnd])):
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
        rounds[m.round].append({
            "table": m.table, "ns": f"{m.ns}NS" if directional else m.ns,
            "ew": f"{m.ew}EW" if directional else m.ew, "boards": sorted(m.boards)})
    return {"kind": "imported", "numbering": "directional" if directional else "pairs",
            "tables": max((m.table for m in plays), default=0),
            "rounds": [{"round": r, "tables": sorted(t, key=lambda x: x["table"])}
                       for r, t in sorted(rounds.items())],
            "sitout": None}


# --- people ---------------------------------------------------------------------------------


def _split_name(name: str) -> tuple[str, str]:
    if "," in name:
        last, _c, first = name.partition(",")
        return first.strip() or last.strip(), last.strip()
    parts = name.split()
    if len(parts) == 1:
        return parts[0], parts[0]
    return parts[0], " ".join(parts[1:])


class People:
    """Members by licence number, loaded once; guests made (or found) for everyone else."""

    def __init__(self, event: FileEvent) -> None:
        licences = {p.licence for s in event.sections for pair in s.pairs for p in pair.players
                    if p.licence}
        self.by_licence = {m.licence_number: m for m in
                           Member.objects.filter(licence_number__in=licences)}
        self.matched: set[int] = set()
        self.guests: set[int] = set()

    def member(self, player: FilePlayer) -> Member:
        found = self.by_licence.get(player.licence) if player.licence else None
        if found is not None:
            (self.guests if found.is_guest else self.matched).add(found.pk)
            return found
        first, last = _split_name(player.name)
        if not player.licence:
            found = Member.objects.filter(is_guest=True, licence_number="", first_name=first,
                                          last_name=last).first()
        if found is None:
            found = Member.objects.create(first_name=first[:80], last_name=last[:120],
                                          licence_number=player.licence[:30], is_guest=True)
            if player.licence:
                self.by_licence[player.licence] = found
        self.guests.add(found.pk)
        return found


def _pair_key(pair: FilePair) -> tuple:
    return tuple(sorted(p.licence or p.name.casefold() for p in pair.players))


# --- the import -----------------------------------------------------------------------------


def _pools(sections: list[FileSection], per_section: bool = False) -> dict[int, str]:
    """Section index → pool: sections of a session with the same boards share one (unless
    the file's Butler datum was taken per section: then each section is its own field)."""
    pools: dict[int, str] = {}
    seen: dict[tuple, str] = {}
    for i, s in enumerate(sections):
        key = (s.session, tuple(sorted(s.boards)), s.letter if per_section else "")
        pools[i] = seen.setdefault(key, s.letter)
    return pools


def _lead(text: str) -> str:
    try:
        return entry_service.normalise_lead(text)
    except TournamentError:
        return ""


def save_deals(tournament: Tournament, deals: dict[int, str],
               conditions: dict[int, tuple[str, str]] | None = None) -> None:
    """The hand records' deals, and the dealer and vulnerability they state (a board marked
    otherwise than Law 2 keeps its marking, and says so)."""
    conditions = conditions or {}
    numbers = set(deals) | set(conditions)
    if not numbers:
        return
    dealt = list(Board.objects.filter(session__tournament=tournament, number__in=numbers))
    for board in dealt:
        board.deal = deals.get(board.number, board.deal)
        if board.number in conditions:
            dealer, vul = conditions[board.number]
            board.dealer, board.vulnerability = dealer, vul
            board.conditions_overridden = (dealer, vul or None) != board_conditions(board.number)
    Board.objects.bulk_update(dealt, ["deal", "dealer", "vulnerability", "conditions_overridden"])


PASS_WORDS = ("PASS", "P", "AP", "PASSED", "ALL PASS")


def _result(board: Board, line: FileLine, notes: list[dict], where: str) -> dict:
    """The result row's fields; the contract is checked against Law 77 when the file gives
    the tricks, and a score that does not match its contract is noted (the score stands)."""
    data = {"contract": "", "declarer": "", "tricks": None, "ns_score": line.score,
            "lead": _lead(line.lead), "adjustment": line.adjustment}
    contract = line.contract.strip()
    passed = contract.upper() in PASS_WORDS
    if contract and (passed or line.tricks is not None):
        try:
            played = entry_service.scored(board, contract, "" if passed else line.declarer,
                                          None if passed else line.tricks)
        except TournamentError as exc:
            raise UsebioError(_("%(where)s: %(problem)s") % {"where": where,
                                                              "problem": exc.message}) from exc
        data.update(contract=played["contract"], declarer=played["declarer"],
                    tricks=played["tricks"])
        if line.adjustment is None and line.score != played["ns_score"]:
            notes.append({"what": "score", "where": where, "file": str(line.score),
                          "ours": str(played["ns_score"])})
    elif contract:
        data.update(contract=contract[:8], declarer=line.declarer)
    if line.adjustment is None and line.score is None:
        raise UsebioError(_("%(where)s: the line has no score.") % {"where": where})
    return data


@transaction.atomic
def import_event(event: FileEvent, *, user=None, file_name: str = "") -> tuple[Tournament, dict]:
    """Create the tournament from parsed data; returns it and the import summary."""
    tournament = setup.create_tournament(
        name=event.name, date=event.date, venue=event.venue, scoring_method=event.scoring_method,
        sessions=event.session_count, user=user)
    conventions = detect(event)
    Tournament.objects.filter(pk=tournament.pk).update(conventions=conventions)
    tournament.conventions = conventions
    sessions = {s.number: s for s in tournament.sessions.all()}
    people = People(event)
    entries: dict[tuple, Entry] = {}
    pools = _pools(event.sections, conventions.get("butler_field") == "section")
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
            key = _pair_key(pair)
            entry = entries.get(key)
            if entry is None:
                try:
                    entry = registration.register_entry(tournament,
                                                 [people.member(p) for p in pair.players])
                except TournamentError as exc:
                    raise UsebioError(_("Pair %(number)s: %(problem)s")
                                      % {"number": pair.number, "problem": exc.message}) from exc
                entries[key] = entry
            pair_entry[(i, f"{pair.number}{pair.direction}")] = entry
            assignments.append((entry, pair.number, pair.direction))
        numbers = {(m.ns, "NS" if fs.directional else "") for m in plays} | {
            (m.ew, "EW" if fs.directional else "") for m in plays}
        assignments = [a for a in assignments if (a[1], a[2]) in numbers]
        setup.seat_section(section, movement, [a[0] for a in assignments],
                           assignments=assignments)
        made.append((section, fs, plays))
    deals = event.deals
    save_deals(tournament, deals, event.conditions)
    notes: list[dict] = []
    rows = []
    for section, fs, plays in made:
        i = event.sections.index(fs)
        boards = {b.number: b for b in Board.objects.filter(session=section.session,
                                                            pool=section.pool)}
        slot = {(m.ns, m.ew, b): m for m in plays for b in m.boards}
        for number, lines in fs.boards.items():
            for line in lines:
                where = _("Section %(section)s, board %(board)s, %(ns)s v %(ew)s") % {
                    "section": fs.letter, "board": number, "ns": line.ns, "ew": line.ew}
                m = slot[(line.ns, line.ew, number)]
                ns = pair_entry[(i, f"{line.ns}{'NS' if fs.directional else ''}")]
                ew = pair_entry[(i, f"{line.ew}{'EW' if fs.directional else ''}")]
                data = _result(boards[number], line, notes, where)
                if conventions.get("artificial") and line.adjustment \
                        and event.scoring_method == ScoringMethod.MATCHPOINTS \
                        and line.adjustment.get("kind") == "artificial":
                    data["adjustment"] = awarded_percentages(line, tops[id(line)]) \
                        or line.adjustment
                rows.append(Result(section=section, board=boards[number], round=m.round,
                                   table=m.table, ns=ns, ew=ew, entered_by=user, confirmed=True,
                                   reason=result_reason(file_name), **data))
    save_results(rows)
    finish(tournament, user=user, file_name=file_name)
    summary = {
        "event": event.name, "program": event.program, "club": event.club_name,
        "sessions": event.session_count, "sections": len(event.sections),
        "pairs": len(entries), "members": len(people.matched), "guests": len(people.guests),
        "boards": len({(s.session, n) for s in event.sections for n in s.boards}),
        "lines": len(rows), "deals": len(deals), "conventions": conventions,
    }
    return tournament, {"summary": summary, "notes": notes}


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


def save_results(rows: list[Result]) -> None:
    try:
        with transaction.atomic():
            Result.objects.bulk_create(rows, batch_size=1000)
    except IntegrityError as exc:
        raise UsebioError(_("The file has two results for the same pairs on the same board."))\
            from exc


def finish(tournament: Tournament, *, user=None, file_name: str = "") -> None:
    """Close the sessions, score them with our cores and publish the final results."""
    tournament.sessions.update(status=SessionStatus.FINISHED, finished_at=timezone.now())
    classify_tournament(tournament)
    now = timezone.now()
    Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.FINAL,
                                                       published_at=now, correction_minutes=0)
    tournament.refresh_from_db()
    lines = Result.objects.filter(section__session__tournament=tournament).count()
    AuditEntry.objects.create(tournament=tournament, action=AuditAction.PUBLISHED, user=user,
                              before={"results": 0},
                              after={"status": tournament.status, "imported": file_name,
                                     "results": lines},
                              reason=_("Imported from a USEBIO file."))


def result_reason(file_name: str) -> str:
    return _("Imported from %(file)s") % {"file": file_name} if file_name else ""


# --- verifying ------------------------------------------------------------------------------


def _tolerance(value: Decimal) -> Decimal:
    """Half a unit of the file's last decimal, plus our own 2-decimal rounding."""
    places = max(-value.as_tuple().exponent, 0)
    return Decimal(5).scaleb(-(places + 1)) + Decimal("0.005")


def _differs(file_value: Decimal | None, ours) -> bool:
    if file_value is None:
        return False
    if ours is None:
        return True
    if isinstance(ours, Fraction):
        ours = Decimal(ours.numerator) / Decimal(ours.denominator)
    return abs(Decimal(ours) - file_value) > _tolerance(file_value)


def _participant_label(event: FileEvent, fs: FileSection, pair: FilePair) -> str:
    if event.scoring_method in TEAM_METHODS:
        return _("Section %(section)s, team %(team)s") % {"section": fs.letter,
                                                          "team": pair.name or pair.number}
    if event.event_type == "INDIVIDUAL":
        return _("Section %(section)s, player %(player)s") % {"section": fs.letter,
                                                              "player": pair.number}
    return _("Section %(section)s, pair %(pair)s") % {
        "section": fs.letter, "pair": f"{pair.number}{pair.direction}"}


def _ours_vs_file(conventions: dict):
    """Our figure on the file's terms: a raw-marks file's lines are compared with our mark
    brought back to the board's own top, a factored-totals file's pair totals with our points
    on the boards played factored up to the full set."""
    factoring = conventions.get("factoring", "neuberg")

    def line_mark(ours, side: str, n: int, big_n: int):
        if ours is None or conventions.get("marks") != "raw" or n == big_n or n < 1:
            return ours
        return raw_mark(Fraction(ours), side, n, big_n, factoring)

    def total(played_points, count: int, full: int):
        if conventions.get("totals") == "factored" and count:
            return played_points * full / count
        return played_points

    return line_mark, total


def _tried(conventions: dict) -> str:
    """The rules a figure was checked under, and the others tried, for a difference no
    known convention explains."""
    used = "; ".join(describe(conventions)) or _("the club's own rules")
    others = alternatives(conventions)
    return used + (f" ({_('also tried')}: {'; '.join(others)})" if others else "")


def _shown(value) -> str:
    if isinstance(value, Fraction):
        value = round(Decimal(value.numerator) / Decimal(value.denominator), 2)
    return str(value)


def _place_text(place: int, tied: bool) -> str:
    return f"{place}=" if tied else str(place)


def verify(tournament: Tournament, event: FileEvent) -> list[dict]:
    """Every figure of the file our scoring does not reproduce, on the file's own terms (its
    recognised conventions); each difference says which rules were tried."""
    conventions = tournament.conventions or {}
    line_mark, total_of = _ours_vs_file(conventions)
    tried = _tried(conventions)
    shared = conventions.get("places") == "shared"
    # an individual's lines hold four players; IMP events give a relay nothing (no average)
    pairs = event.event_type != "INDIVIDUAL" and event.scoring_method == ScoringMethod.MATCHPOINTS
    out: list[dict] = []
    sections = {(s.session.number, s.letter): s for s in Section.objects.filter(
        session__tournament=tournament).select_related("session")}
    ranks = defaultdict(dict)
    for r in StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.SECTION):
        ranks[r.section_id][(r.number, r.direction)] = r
    marks = {}
    for m in StoredMark.objects.filter(session__tournament=tournament).select_related("result"):
        if m.result_id:
            marks[(m.section_id, m.board_number, m.result.round, m.result.table,
                   m.direction)] = m.mark
    real = {}  # (session, board) → real results in the field, and the field's N
    for boards in field_boards(event, conventions.get("butler_field") == "section"):
        top = event_top(event, [line for ls in boards.values() for line in ls])
        big_n = int(top / 2 + 1) if top else 0
        for lines in boards.values():
            for line in lines:
                real[id(line)] = (sum(1 for ln in lines if ln.adjustment is None
                                      and ln.score is not None), big_n)
    for fs in event.sections:
        section = sections[(fs.session, fs.letter)]
        plays = meetings(fs)
        slot = {(m.ns, m.ew, b): m for m in plays for b in m.boards}
        played: dict[tuple[int, str], list] = defaultdict(lambda: [Decimal(0), 0])
        for number, lines in sorted(fs.boards.items()):
            for line in lines:
                m = slot[(line.ns, line.ew, number)]
                where = _("Section %(section)s, board %(board)s, %(ns)s v %(ew)s") % {
                    "section": fs.letter, "board": number, "ns": line.ns, "ew": line.ew}
                n, big_n = real[id(line)]
                for side, pair, file_value in (("NS", line.ns, line.ns_mark),
                                               ("EW", line.ew, line.ew_mark)):
                    ours = marks.get((section.pk, number, m.round, m.table, side))
                    key = (pair, side if fs.directional else "")
                    played[key][0] += ours or 0
                    played[key][1] += 1
                    if line.adjustment is None and line.score is not None:
                        ours = line_mark(ours, side, n, big_n)
                    if _differs(file_value, ours):
                        out.append({"what": f"mark {side}", "where": where,
                                    "file": str(file_value), "tried": tried,
                                    "ours": "" if ours is None else _shown(ours)})
        most = max((c for _p, c in played.values()), default=0)
        for pair in fs.pairs:
            where = _participant_label(event, fs, pair)
            r = ranks[section.pk].get((pair.number, pair.direction))
            _points, count = played.get((pair.number, pair.direction), (None, 0))
            ours_total = r.points if r else None
            if pairs and r is not None and count and r.points is not None:
                # our total without a relay's own average, then on the file's terms
                raw = r.points * count / r.boards if r.boards > count else r.points
                ours_total = round(total_of(raw, count, max(full_set(fs, most), r.boards)), 2)
            for what, file_value, ours in (
                    ("total", pair.total, ours_total),
                    ("percentage", pair.percentage, r.percentage if r else None)):
                if _differs(file_value, ours):
                    out.append({"what": what, "where": where, "file": str(file_value),
                                "ours": "" if ours is None else str(ours), "tried": tried})
            if pair.place is not None and (r is None or r.place != pair.place
                                           or (shared and r.tied != pair.tied)):
                out.append({"what": "place", "where": where,
                            "file": _place_text(pair.place, pair.tied and shared),
                            "ours": _place_text(r.place, r.tied and shared) if r else "",
                            "tried": tried})
    return out


class AlreadyImported(UsebioError):
    """The file (same content, or the same scorer's event) was imported before; ``replace``
    imports it again in place of the earlier tournament."""

    def __init__(self, tournament: Tournament) -> None:
        super().__init__(_("This file is already imported as “%(name)s” (%(slug)s). Import it "
                           "again with “replace” to put this file in its place.")
                         % {"name": tournament.name, "slug": tournament.slug}, "duplicate")
        self.tournament = tournament


def content_hash(data: bytes | str) -> str:
    raw = data.encode() if isinstance(data, str) else data
    return hashlib.sha256(raw).hexdigest()


def earlier_import(digest: str, event: FileEvent) -> Tournament | None:
    """The tournament made from this file before: the same bytes, or the same scorer's event
    (its EVENT_IDENTIFIER, on the same date) written again with other figures."""
    found = Tournament.objects.filter(import_hash=digest).first()
    if found is None and event.identifier:
        found = Tournament.objects.filter(import_identifier=event.identifier,
                                          date=event.date).first()
    return found


def remove_import(tournament: Tournament) -> None:
    """Delete an imported tournament and everything made from its file (results first: they
    hold their entries), so the file can be imported again in its place."""
    from ..models import TeamLineup, TeamMatch

    Result.objects.filter(section__session__tournament=tournament).delete()
    TeamLineup.objects.filter(match__session__tournament=tournament).delete()
    TeamMatch.objects.filter(session__tournament=tournament).delete()
    tournament.delete()


def clean_file_name(file_name: str) -> str:
    """An upload's name is the client's text: no NUL (PostgreSQL refuses it) and no
    unencodable characters reach the record."""
    return "".join(c for c in file_name if c.isprintable()).encode(
        "utf-8", "replace").decode("utf-8")


def import_progress(key: str) -> int:
    """How far the import with this key has got (0-100), for its page's progress bar."""
    return int(cache.get(f"usebio-import:{key}", 0) or 0) if key else 0


def _progress(key: str, percent: int) -> None:
    # The cache, not the record: the import runs in one transaction the page cannot see into.
    if key:
        cache.set(f"usebio-import:{key}", percent, 3600)


def _record(key: str, **fields) -> ResultImport:
    """The import's record: the one the page made when the file was sent (being imported),
    completed, or a new one (the command, or a page without a key)."""
    pending = ResultImport.objects.filter(key=key, state=ImportState.RUNNING).first() \
        if key else None
    if pending is None:
        return ResultImport.objects.create(key=key, **fields)
    for name, value in fields.items():
        setattr(pending, name, value)
    pending.save()
    return pending


def import_file(data: bytes | str, *, file_name: str = "", user=None,
                key: str = "", replace: bool = False) -> ResultImport:
    """Parse, import and verify; a refused file is recorded with its error and raises
    ``UsebioError`` after everything it started was rolled back. With a ``key``, a second
    call with the same key returns the first call's import instead of importing again.
    A file imported before is refused (``AlreadyImported``, the record names the earlier
    tournament) unless ``replace``: then the earlier tournament gives way to the new one."""
    file_name = clean_file_name(file_name)
    if key:
        done = ResultImport.objects.filter(key=key).exclude(state=ImportState.RUNNING).first()
        if done is not None:
            return done
    digest = content_hash(data)
    try:
        _progress(key, 5)
        event = parse(data)
        _progress(key, 30)
        with transaction.atomic():
            earlier = earlier_import(digest, event)
            if earlier is not None and not replace:
                raise AlreadyImported(earlier)
            replaced = earlier.slug if earlier is not None else ""
            if earlier is not None:
                remove_import(earlier)
            if event.scoring_method in TEAM_METHODS:
                from .usebio_teams import import_teams, verify_teams

                tournament, outcome = import_teams(event, user=user, file_name=file_name)
                _progress(key, 80)
                differences = outcome["notes"] + verify_teams(tournament, event)
            elif event.event_type == "INDIVIDUAL":
                from .usebio_individual import import_individual

                tournament, outcome = import_individual(event, user=user, file_name=file_name)
                _progress(key, 80)
                differences = outcome["notes"] + verify(tournament, event)
            else:
                tournament, outcome = import_event(event, user=user, file_name=file_name)
                _progress(key, 80)
                differences = outcome["notes"] + verify(tournament, event)
            Tournament.objects.filter(pk=tournament.pk).update(
                import_hash=digest, import_identifier=event.identifier)
            summary = outcome["summary"]
            if replaced:
                summary["replaced"] = replaced
            record = _record(key, file_name=file_name[:200], tournament=tournament,
                             state=ImportState.DONE, summary=summary,
                             differences=differences, created_by=user)
        _progress(key, 100)
        return record
    except UsebioError as exc:
        _record(key, file_name=file_name[:200], state=ImportState.FAILED, error=exc.message,
                tournament=exc.tournament if isinstance(exc, AlreadyImported) else None,
                summary={"duplicate": True} if isinstance(exc, AlreadyImported) else {},
                created_by=user)
        _progress(key, 100)
        raise


def report_text(record: ResultImport) -> str:
    """The verify report as plain text (the command prints it; the page shows a table)."""
    if record.state == ImportState.FAILED:
        return _("Refused: %(error)s") % {"error": record.error}
    s = record.summary
    lines = [] if "replaced" not in s else [
        _("It replaces the earlier import %(slug)s.") % {"slug": s["replaced"]}]
    lines += [
        _("Imported “%(event)s” as %(slug)s.") % {"event": s.get("event"),
                                                 "slug": record.tournament.slug
                                                 if record.tournament else "-"},
        (_("%(teams)s teams (%(members)s members matched by licence, %(guests)s guests), "
           "%(matches)s matches, %(boards)s boards, %(lines)s results, %(deals)s deals.")
         if "teams" in s else
         _("%(players)s players (%(members)s members matched by licence, %(guests)s guests), "
           "%(boards)s boards, %(lines)s results, %(deals)s deals.")
         if "players" in s else
         _("%(pairs)s pairs (%(members)s members matched by licence, %(guests)s guests), "
           "%(boards)s boards, %(lines)s results, %(deals)s deals.")) % s,
    ]
    if s.get("conventions"):
        lines.append(_("Conventions of the file: %(rules)s.")
                     % {"rules": "; ".join(describe(s["conventions"]))})
    if not record.differences:
        lines.append(_("Verify: our scoring reproduces every figure of the file."))
    else:
        lines.append(_("Verify: %(count)s differences between the file and our scoring:")
                     % {"count": len(record.differences)})
        for d in record.differences:
            lines.append(f"  {d['where']}: {d['what']} {_('file')} {d['file']} · "
                         f"{_('ours')} {d['ours'] or '-'}"
                         + (f" · {_('rules tried')}: {d['tried']}" if d.get("tried") else ""))
    return "\n".join(lines)

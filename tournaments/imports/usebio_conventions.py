"""How another scorer scored a USEBIO file, recognised from the file's own figures.

Scorers agree on the laws but not on every convention, and a club compares our figures with
theirs. Each convention below is recognised by which candidate reproduces the file's numbers;
the result is recorded on the imported tournament (``Tournament.conventions``), our scoring
then scores it the same way, and the verify report compares like with like. Events scored
here have no conventions and keep the club's own rules.

- ``marks``: ``"neuberg"`` when each traveller line holds the Neuberg-factored marks on the
  event's top, ``"raw"`` when a board with fewer results keeps its lines on its own top
  (2·(n − 1)) and is factored only when totalling.
- ``factoring``: how such a board is brought up to the top: ``"neuberg"`` (C03 l.606) or the
  plain ``"ratio"`` top / own top.
- ``totals``: a pair that played fewer boards (a sit-out, a table that missed a board) shows
  its points as ``"played"`` or ``"factored"`` up to the full set; its percentage is always
  points / (boards played × top), as the course's relay rule gives (C03 l.590, l.661).
- ``butler_datum`` / ``butler_round_to`` / ``butler_field``: the datum is the mean of all
  results (``"mean"``), without the top and bottom (``"course"``) or the two top and two
  bottom (``"trim2"``), rounded to 10 or not,
  per ``"section"`` or over the ``"field"`` of sections sharing the boards.
- ``cross_imps`` / ``cross_round``: a cross-IMP mark written as the average, the sum or the
  factored sum of its comparisons, rounded before totalling or not (``usebio_cross``).
- ``vp_scale``: a teams file's VPs, the one of our scales that gives every match's VPs
  (``usebio_teams.vp_scale_of``); on the WBF's continuous scale ``vp_places`` (2 as the WBF
  prints them, or 1) and ``vp_loser`` (``"own"``: each team's VPs from its own margin,
  ``"complement"``: the loser 20 minus the winner's), as ``scoring.vp.match_vps`` takes them.
- ``places``: ``"shared"`` when the file writes ties as one place (``3=``).
- ``artificial``: ``"awarded"`` when an artificial score's line carries points: the
  director's award is kept (a pair's session percentage, 60 % / 40 % of the top; in Butler
  and cross-IMPs the IMPs given, e.g. +3 / −3) instead of being recomputed from its code.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction

from ..scoring import imps, methods
from ..scoring.butler import butler_datum
from .usebio_board_marks import STYLES, board_candidates, close, in_style, raw_marks, shown
from .usebio_convention_words import RULE_NAMES, alternatives, describe  # noqa: F401
from .usebio_cross import cross_conventions
from .usebio_rows import FileEvent, FileLine, FileSection

BUTLER_VARIANTS = [
    (rule, round_to) for rule in ("course", "mean", "trim2") for round_to in (None, 10)
]


def _real(line: FileLine) -> bool:
    return line.adjustment is None and line.score is not None


def per_section(conventions: dict) -> bool:
    """Whether the file compared each section on its own (Butler datum or cross-IMPs)."""
    return "section" in (conventions.get("butler_field"), conventions.get("cross_field"))


def field_boards(event: FileEvent, per_section: bool) -> list[dict[int, list[FileLine]]]:
    """The comparison groups: each section alone, or sections of a session sharing boards."""
    if per_section:
        return [s.boards for s in event.sections]
    groups: dict[tuple, dict[int, list[FileLine]]] = {}
    for s in event.sections:
        group = groups.setdefault((s.session, tuple(sorted(s.boards))), defaultdict(list))
        for number, lines in s.boards.items():
            group[number].extend(lines)
    return list(groups.values())


def file_top(lines: Iterable[FileLine]) -> Fraction | None:
    """The event's top as the file writes it: the largest NS + EW of a real line."""
    sums = [
        Fraction(line.ns_mark) + Fraction(line.ew_mark)
        for line in lines
        if _real(line) and line.ns_mark is not None and line.ew_mark is not None
    ]
    return max(sums, default=None)


def seats_of(line: FileLine) -> list[tuple[int, str, Decimal | None]]:
    """Who a line credits with which mark: its two pairs, or an individual's four players
    (North and South the NS mark, East and West the EW one)."""
    return [
        (who, side, mark)
        for who, side, mark in (
            (line.ns, "NS", line.ns_mark),
            (line.south, "NS", line.ns_mark),
            (line.ew, "EW", line.ew_mark),
            (line.west, "EW", line.ew_mark),
        )
        if who is not None
    ]


def percentage_top(event: FileEvent) -> Fraction | None:
    """The event's top as the pairs' percentages imply it: total × 100 / (% × boards), the
    boards being those played or the full set (whichever way the totals were written gives
    an even top). It sees the top even when every board is short of results (a Howell with a
    sit-out) and its lines are raw on their own top."""
    if totals_are_percentages(event):
        return None
    # a handicapped percentage may hold half the pair's handicap: both readings are tried
    estimates: dict[tuple, list[Fraction]] = defaultdict(list)
    for section in event.sections:
        counts = Counter()
        for lines in section.boards.values():
            for ln in lines:
                for pair, side, _mark in seats_of(ln):
                    counts[(pair, side if section.directional else "")] += 1
        full = full_set(section, max(counts.values(), default=0))
        for pair in section.pairs:
            count = counts.get((pair.number, pair.direction if section.directional else ""))
            if not count or not pair.total or not pair.percentage:
                continue
            for reading in ("scratch", "half"):
                pct = Fraction(pair.percentage) - (
                    Fraction(pair.handicap or 0) / 2 if reading == "half" else 0
                )
                if pct <= 0:
                    continue
                base = Fraction(pair.total) * 100 / pct
                estimates[("played", reading)].append(base / count)
                estimates[("factored", reading)].append(base / full)
    best = None
    for values in estimates.values():
        if not values:
            continue
        even = 2 * round(sum(values) / len(values) / 2)
        gap = sum(abs(v - even) for v in values) / len(values)
        if even > 0 and gap < Fraction(1, 20) and (best is None or gap < best[0]):
            best = (gap, Fraction(even))
    return best[1] if best else None


def totals_are_percentages(event: FileEvent) -> bool:
    """Whether the file's ``TOTAL_SCORE`` carries each pair's percentage (some programs write
    it so): every pair with both figures shows the same number in each, or, with no
    percentages given, each total is the pair's marks as a percentage of the top."""
    pairs = [p for s in event.sections for p in s.pairs if p.total is not None]
    if not pairs:
        return False
    if all(p.percentage is not None for p in pairs):
        return all(p.total == p.percentage for p in pairs)
    if any(p.percentage is not None for p in pairs):
        return False
    for section in event.sections:
        top = file_top(line for ls in section.boards.values() for line in ls)
        points = _pair_points(section, lambda _n, _l, mark, _s: mark)
        for p in section.pairs:
            got = points.get((p.number, p.direction if section.directional else ""))
            if not top or got is None or not got[1] or p.total is None:
                return False
            if abs(got[0] * 100 / (top * got[1]) - Fraction(p.total)) > Fraction(1, 100):
                return False
    return True


def event_top(event: FileEvent, lines: Iterable[FileLine]) -> Fraction | None:
    """The top of a field: from the percentages when the file gives them, else its lines."""
    return percentage_top(event) or file_top(lines)


def factored(raw: Fraction, n: int, big_n: int, factoring: str) -> Fraction:
    """A raw mark among ``n`` results brought up to ``big_n`` results."""
    if n == big_n or n < 2:
        return raw if n == big_n else Fraction(big_n - 1)
    return shown(raw, n, big_n, factoring)


def _pair_points(section: FileSection, convert) -> dict[tuple[int, str], tuple[Fraction, int]]:
    """(pair, line) → (points, boards with a line) from the file's marks, each converted."""
    out: dict[tuple[int, str], list] = defaultdict(lambda: [Fraction(0), 0])
    directional = section.directional
    for number, lines in section.boards.items():
        for line in lines:
            for pair, side, mark in seats_of(line):
                key = (pair, side if directional else "")
                out[key][1] += 1
                if mark is not None:
                    out[key][0] += convert(number, line, Fraction(mark), side)
    return {k: (v[0], v[1]) for k, v in out.items()}


def full_set(section: FileSection, most: int) -> int:
    """Boards a pair plays in the full movement: rounds × boards per round when the lines say
    their rounds (a Howell where everyone sits out once), else the most any pair has."""
    meetings: dict[tuple[int, int], set[int]] = defaultdict(set)
    for number, lines in section.boards.items():
        for line in lines:
            if not line.round:
                return most
            meetings[(line.round, line.ns)].add(number)
    if not meetings:
        return most
    per_round = Counter(len(b) for b in meetings.values()).most_common(1)[0][0]
    return max(most, len({r for r, _ns in meetings}) * per_round)


def _totals_style(event: FileEvent, convert, top_of=None) -> tuple[str, Fraction]:
    """``"played"`` or ``"factored"``, and how far the better one is from the file's pair
    totals (the sum of the gaps: the file rounds each line, so no candidate is exact).

    A file whose total is the pair's percentage (``totals_are_percentages``) says nothing of
    how its totals were written; the percentages still tell how its raw boards were brought
    up to the top, so the gap is measured on them (``top_of(section)``: the section's top)."""
    gap = {"played": Fraction(0), "factored": Fraction(0)}
    as_percentage = top_of is not None and totals_are_percentages(event)
    for section in event.sections:
        points = _pair_points(section, convert)
        full = full_set(section, max((c for _p, c in points.values()), default=0))
        top = top_of(section) if as_percentage else None
        for pair in section.pairs:
            got = points.get((pair.number, pair.direction if section.directional else ""))
            if got is None or pair.total is None or not got[1]:
                continue
            pts, count = got
            if as_percentage:
                if top:
                    pct = pts * 100 / (top * count)
                    gap["played"] += abs(Fraction(pair.total) - pct)
                    gap["factored"] += abs(Fraction(pair.total) - pct)
                continue
            gap["played"] += abs(Fraction(pair.total) - pts)
            gap["factored"] += abs(Fraction(pair.total) - pts * full / count)
    best = "factored" if gap["factored"] < gap["played"] else "played"
    return best, gap[best]


def _display_top(event: FileEvent, fields, big_ns: dict[str, int]) -> int | None:
    """The usual NS + EW of a board with every result, when it is not the true top."""
    sums: Counter = Counter()
    for name, boards in fields:
        for lines in boards.values():
            real = [
                ln
                for ln in lines
                if _real(ln) and ln.ns_mark is not None and ln.ew_mark is not None
            ]
            if len(real) == big_ns[name]:
                sums.update(Fraction(ln.ns_mark) + Fraction(ln.ew_mark) for ln in real)
    if not sums:
        return None
    shown_top = sums.most_common(1)[0][0]
    tops = {2 * (n - 1) for n in big_ns.values()}
    if shown_top.denominator != 1 or any(abs(shown_top - t) < 1 for t in tops):
        return None
    return int(shown_top)


def field_sizes(event: FileEvent) -> tuple[dict[str, int], int | None]:
    """Each field's N (results a board has when everyone plays it), by ``keyed_fields``
    name, and the top the file shows its line marks on when it rescaled them for display
    (e.g. 10, whole numbers) while its totals and percentages keep the true top.

    N comes from the top the percentages imply; without them, from the lines' own top, or,
    when the lines are rescaled, from the results a board has at most."""
    fields = keyed_fields(event)
    counted = {
        name: max((sum(1 for ln in ls if _real(ln)) for ls in boards.values()), default=1)
        for name, boards in fields
    }
    implied = percentage_top(event)
    big_ns: dict[str, int] = {}
    for name, boards in fields:
        top = implied or file_top(line for ls in boards.values() for line in ls)
        big_ns[name] = int(top / 2 + 1) if top else counted[name]
    shown = _display_top(event, fields, big_ns if implied else counted)
    if shown and not implied:
        big_ns = counted
    return big_ns, shown


def keyed_fields(event: FileEvent) -> list[tuple[str, dict[int, list[FileLine]]]]:
    """``field_boards`` (sections of a session sharing boards) with a name for each field,
    so a board's convention can be recorded as ``"<name>-<board>"``."""
    groups: dict[tuple, tuple[str, dict]] = {}
    for s in event.sections:
        name, group = groups.setdefault(
            (s.session, tuple(sorted(s.boards))), (f"{s.session}{s.letter}", defaultdict(list))
        )
        for number, lines in s.boards.items():
            group[number].extend(lines)
    return list(groups.values())


def line_keys(event: FileEvent) -> dict[int, str]:
    """id(line) → its board's key in ``board_marks``."""
    return {
        id(line): f"{name}-{number}"
        for name, boards in keyed_fields(event)
        for number, lines in boards.items()
        for line in lines
    }


def _matchpoint_conventions(event: FileEvent) -> dict:
    """Each short board's style (``usebio_board_marks``); the file's main style is the one
    most boards fit, the others are kept by board (``board_marks``); raw boards are brought
    up when totalling by the factoring the factored boards use, or else by the one that
    reproduces the pairs' totals. Where boards fit two styles (marks rounded for display)
    and the boards alone cannot tell, the totals decide too."""
    fields = keyed_fields(event)
    big_ns, shown_top = field_sizes(event)
    scale = {
        name: Fraction(shown_top, 2 * (big_ns[name] - 1))
        if shown_top and big_ns[name] > 1
        else Fraction(1)
        for name, _boards in fields
    }
    measured = [(name, boards, big_ns[name], scale[name]) for name, boards in fields]
    fits = board_candidates(measured)
    exact = raw_marks(measured) if shown_top else {}
    support = Counter(st for c in fits.values() if c[0] != "raw" for st in c)
    most = max(support.values(), default=0)
    cores = [st for st in STYLES if st != "raw" and most and support[st] == most] or [None]
    counts = {
        f"{name}-{number}": sum(1 for ln in lines if _real(ln))
        for name, boards in fields
        for number, lines in boards.items()
    }
    field_of = {id(line): name for name, boards in fields for ls in boards.values() for line in ls}
    keys = line_keys(event)

    def top_of(section: FileSection) -> int | None:
        line = next((ln for ls in section.boards.values() for ln in ls), None)
        big_n = big_ns[field_of[id(line)]] if line is not None else 0
        return 2 * (big_n - 1) if big_n > 1 else None

    best = None
    for core in cores:
        styles = {key: c[0] if c[0] == "raw" or core not in c else core for key, c in fits.items()}
        raw_boards = any(st == "raw" for st in styles.values())
        factorings = ([core] if core else ["neuberg", "ratio", "average"]) if raw_boards else [None]
        for factoring in factorings:

            def convert(number, line, mark, side, factoring=factoring, styles=styles):
                key = keys[id(line)]
                big_n = big_ns[field_of[id(line)]]
                style = styles.get(key)
                if style not in (None, "raw") and id(line) in exact:  # exact, not as shown
                    mp, n = exact[id(line)]
                    ns = shown(mp, n, big_n, style)
                    return ns if side == "NS" else 2 * (big_n - 1) - ns
                mark = mark / scale[field_of[id(line)]]  # a displayed mark on the true top
                if factoring is None or not _real(line) or style != "raw":
                    return mark
                n = counts[key]
                if side == "NS":
                    return factored(mark, n, big_n, factoring)
                return 2 * (big_n - 1) - factored(2 * (n - 1) - mark, n, big_n, factoring)

            totals, gap = _totals_style(event, convert, top_of)
            if best is None or gap < best[0]:
                best = (gap, core, factoring, totals, styles)
    _gap, core, factoring, totals, styles = best
    kinds = Counter("raw" if st == "raw" else "factored" for st in styles.values())
    marks = "raw" if kinds["raw"] > kinds["factored"] else "neuberg"
    out: dict = {"marks": marks}
    factoring = factoring or core
    if factoring is not None and (marks == "raw" or factoring != "neuberg"):
        out["factoring"] = factoring
    main = "raw" if marks == "raw" else (factoring or "neuberg")
    exceptions = {key: st for key, st in styles.items() if st != main}
    if exceptions:
        out["board_marks"] = exceptions
    out["totals"] = "percentage" if totals_are_percentages(event) else totals
    if shown_top:
        out["display_top"] = shown_top
    return out


def _butler_conventions(event: FileEvent) -> dict:
    best = None
    for per_section in (False, True):
        for rule, round_to in BUTLER_VARIANTS:
            hits = 0
            for boards in field_boards(event, per_section):
                for lines in boards.values():
                    real = [ln for ln in lines if _real(ln)]
                    if not real:
                        continue
                    datum = butler_datum([ln.score for ln in real], rule, round_to)
                    hits += sum(
                        close(ln.ns_mark, Fraction(imps(ln.score - datum)))
                        for ln in real
                        if ln.ns_mark is not None
                    )
            if best is None or hits > best[0]:
                best = (hits, rule, round_to, per_section)
    _hits, rule, round_to, per_section = best
    return {
        "butler_datum": rule,
        "butler_round_to": round_to,
        "butler_field": "section" if per_section else "field",
    }


def places_shared(event: FileEvent) -> bool:
    """Ties written as one place (``3=``) for every group of pairs showing the same score; a
    file that also parts equal scores by a tie-break (places 2 and 3) keeps ours."""
    shared = parted = False
    for section in event.sections:
        groups: dict[tuple, set] = defaultdict(set)
        for p in section.pairs:
            if p.place is not None:
                shown = p.percentage if p.percentage is not None else p.total
                groups[(p.direction, shown)].add(p.place)
        for (_line, shown), places in groups.items():
            members = [
                p
                for p in section.pairs
                if p.place in places
                and (p.percentage if p.percentage is not None else p.total) == shown
            ]
            if len(members) < 2 or shown is None:
                continue
            if len(places) == 1:
                shared = True
            else:
                parted = True
    return shared and not parted


def detect(event: FileEvent) -> dict:
    """The conventions the file was scored with (see the module's docstring)."""
    method = event.method
    if method.is_teams:
        out = {}
    elif method.is_matchpoints:  # pairs and individuals alike
        out = _matchpoint_conventions(event)
    elif method.imp_form == methods.BUTLER_FORM:
        out = _butler_conventions(event)
    elif method.imp_form == methods.CROSS_FORM:
        out = cross_conventions(
            event,
            {
                "field": field_boards(event, per_section=False),
                "section": field_boards(event, per_section=True),
            },
        )
    else:
        out = {}
    if places_shared(event):
        out["places"] = "shared"
    if any(
        line.adjustment and line.adjustment.get("kind") == "artificial" and line.ns_mark is not None
        for s in event.sections
        for ls in s.boards.values()
        for line in ls
    ):
        out["artificial"] = "awarded"
    return out


def raw_mark(ours: Fraction, side: str, n: int, big_n: int, factoring: str) -> Fraction:
    """Our factored mark back on the board's own top (to compare with a raw-marks file)."""
    return in_style(ours, side, n, big_n, factoring, "raw")

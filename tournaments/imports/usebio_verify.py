"""Checking an imported event: every figure of the file our scoring does not reproduce, on
the file's own terms (its recognised conventions), each with the rules tried."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from ..models import RankingScope, Section, StoredMark, StoredRanking, Tournament
from .usebio_board_marks import in_style
from .usebio_convention_words import RULE_NAMES
from .usebio_conventions import (
    alternatives,
    describe,
    event_top,
    field_boards,
    field_sizes,
    full_set,
    line_keys,
    per_section,
)
from .usebio_handicaps import handicap_terms, has_handicaps, ours_percentage, ours_place
from .usebio_pairs import meetings
from .usebio_parse import FileEvent, FilePair, FileSection
from .usebio_record import overall_entries

# A difference records which figure it is as a code (``"mark NS"``, ``"board IMPs"``); the
# report shows it in the reader's language.
WHAT = {
    "total": pgettext_lazy("verify report", "total"),
    "percentage": pgettext_lazy("verify report", "percentage"),
    "place": pgettext_lazy("verify report", "place"),
    "mark NS": pgettext_lazy("verify report", "mark NS"),
    "mark EW": pgettext_lazy("verify report", "mark EW"),
    "score": pgettext_lazy("verify report", "score"),
    "score (opponents)": pgettext_lazy("verify report", "score (opponents)"),
    "IMPs": pgettext_lazy("verify report", "IMPs"),
    "IMPs (opponents)": pgettext_lazy("verify report", "IMPs (opponents)"),
    "board IMPs": pgettext_lazy("verify report", "board IMPs"),
    "board IMPs (opponents)": pgettext_lazy("verify report", "board IMPs (opponents)"),
    "match": pgettext_lazy("verify report", "match"),
    "bye": pgettext_lazy("verify report", "bye"),
}


def what_label(code: str) -> str:
    """A difference's figure in words, in the reader's language."""
    return str(WHAT.get(code, code))


def shown_differences(differences: list[dict]) -> list[dict]:
    """The differences with their figure and the rules tried in words, for the report's
    page."""
    return [
        {**d, "what": what_label(d.get("what", "")), "tried": tried_words(d.get("tried"))}
        for d in differences
    ]


def _tolerance(value: Decimal) -> Decimal:
    """Half a unit of the file's last decimal, plus our own 2-decimal rounding."""
    places = max(-value.as_tuple().exponent, 0)
    return Decimal(5).scaleb(-(places + 1)) + Decimal("0.005")


def differs(file_value: Decimal | None, ours) -> bool:
    if file_value is None:
        return False
    if ours is None:
        return True
    if isinstance(ours, Fraction):
        ours = Decimal(ours.numerator) / Decimal(ours.denominator)
    return abs(Decimal(ours) - file_value) > _tolerance(file_value)


def _participant_label(event: FileEvent, fs: FileSection, pair: FilePair) -> str:
    if event.method.is_teams:
        return _("Section %(section)s, team %(team)s") % {
            "section": fs.letter,
            "team": pair.name or pair.number,
        }
    if event.event_type == "INDIVIDUAL":
        return _("Section %(section)s, player %(player)s") % {
            "section": fs.letter,
            "player": pair.number,
        }
    return _("Section %(section)s, pair %(pair)s") % {
        "section": fs.letter,
        "pair": f"{pair.number}{pair.direction}",
    }


def _ours_vs_file(conventions: dict):
    """Our figure on the file's terms: each short board's lines are compared with our mark
    written as that board was (raw on its own top, or factored another way:
    ``usebio_board_marks``), a factored-totals file's pair totals with our points on the
    boards played factored up to the full set."""
    factoring = conventions.get("factoring", "neuberg")
    main = "raw" if conventions.get("marks") == "raw" else factoring
    boards = conventions.get("board_marks") or {}

    shown_top = conventions.get("display_top")

    def line_mark(ours, side: str, n: int, big_n: int, key: str = ""):
        style = boards.get(key, main)
        if ours is not None and not (n >= big_n or n < 1 or style == factoring):
            ours = in_style(Fraction(ours), side, n, big_n, factoring, style)
        if ours is not None and shown_top and big_n > 1:  # marks rescaled for display
            ours = Fraction(ours) * shown_top / (2 * (big_n - 1))
        return ours

    def total(played_points, count: int, full: int):
        if conventions.get("totals") == "factored" and count:
            return played_points * full / count
        return played_points

    return line_mark, total


# The conventions a difference's "tried" keeps: the recognised rules and how the marks are
# shown (``usebio_convention_words`` puts them in words).
_TRIED_KEYS = (*RULE_NAMES, "display_top", "board_marks")


def rules_tried(conventions: dict) -> dict:
    """The rules a figure was checked under, for a difference no known convention explains:
    their codes (``{"marks": "raw", ...}``), put in words in the reader's language when the
    report is shown (``tried_words``), not in the language of the import."""
    return {k: v for k, v in conventions.items() if k in _TRIED_KEYS}


def tried_words(tried) -> str:
    """The rules tried in words: those used, and the others tried. A report stored before
    the codes holds the words themselves (in the language of its import): shown as they
    are."""
    if tried is None or isinstance(tried, str):
        return tried or ""
    used = "; ".join(describe(tried)) or _("the club's own rules")
    others = alternatives(tried)
    also = _("also tried")  # outside the f-string: makemessages finds it
    return used + (f" ({also}: {'; '.join(others)})" if others else "")


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
    # an individual's lines hold four players; IMP events give a relay nothing (no average)
    pairs = event.event_type != "INDIVIDUAL" and event.method.is_matchpoints
    out: list[dict] = []
    sections = {
        (s.session.number, s.letter): s
        for s in Section.objects.filter(session__tournament=tournament).select_related("session")
    }
    ranks = defaultdict(dict)
    for r in StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.SECTION):
        ranks[r.section_id][(r.number, r.direction)] = r
    if has_handicaps(event):  # which of our two rankings the file's figures are
        conventions = {
            **conventions,
            **handicap_terms(
                event,
                lambda fs, p: ranks[sections[(fs.session, fs.letter)].pk].get(
                    (p.number, p.direction)
                ),
            ),
        }
        Tournament.objects.filter(pk=tournament.pk).update(conventions=conventions)
        tournament.conventions = conventions
    tried = rules_tried(conventions)
    shared = conventions.get("places") == "shared"
    marks = {}
    for m in StoredMark.objects.filter(session__tournament=tournament).select_related("result"):
        if m.result_id:
            marks[(m.section_id, m.board_number, m.result.round, m.result.table, m.direction)] = (
                m.mark
            )
    keys = line_keys(event)
    big_ns, _display = field_sizes(event) if event.method.is_matchpoints else ({}, None)
    real = {}  # id(line) → real results in its field, and the field's N
    for boards in field_boards(event, per_section(conventions)):
        top = event_top(event, [line for ls in boards.values() for line in ls])
        big_n = int(top / 2 + 1) if top else 0
        for lines in boards.values():
            for line in lines:
                n = big_ns.get(keys[id(line)].rsplit("-", 1)[0], big_n)
                real[id(line)] = (
                    sum(1 for ln in lines if ln.adjustment is None and ln.score is not None),
                    n,
                )
    for fs in event.sections:
        section = sections[(fs.session, fs.letter)]
        plays = meetings(fs)
        slot = {(m.ns, m.ew, b): m for m in plays for b in m.boards}
        played: dict[tuple[int, str], list] = defaultdict(lambda: [Decimal(0), 0])
        for number, lines in sorted(fs.boards.items()):
            for line in lines:
                m = slot[(line.ns, line.ew, number)]
                where = _("Section %(section)s, board %(board)s, %(ns)s v %(ew)s") % {
                    "section": fs.letter,
                    "board": number,
                    "ns": line.ns,
                    "ew": line.ew,
                }
                n, big_n = real[id(line)]
                for side, pair, file_value in (
                    ("NS", line.ns, line.ns_mark),
                    ("EW", line.ew, line.ew_mark),
                ):
                    ours = marks.get((section.pk, number, m.round, m.table, side))
                    key = (pair, side if fs.directional else "")
                    played[key][0] += ours or 0
                    played[key][1] += 1
                    if line.adjustment is None and line.score is not None:
                        ours = line_mark(ours, side, n, big_n, keys.get(id(line), ""))
                    else:  # an adjusted line: only the display scale applies
                        ours = line_mark(ours, side, big_n, big_n)
                    if differs(file_value, ours):
                        out.append(
                            {
                                "what": f"mark {side}",
                                "where": where,
                                "file": str(file_value),
                                "tried": tried,
                                "ours": "" if ours is None else _shown(ours),
                            }
                        )
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
            percentage = ours_percentage(r, conventions)
            if conventions.get("totals") == "percentage":  # the file's total is its %
                ours_total = percentage
            for what, file_value, ours in (
                ("total", pair.total, ours_total),
                ("percentage", pair.percentage, percentage),
            ):
                if differs(file_value, ours):
                    out.append(
                        {
                            "what": what,
                            "where": where,
                            "file": str(file_value),
                            "ours": "" if ours is None else str(ours),
                            "tried": tried,
                        }
                    )
            place = ours_place(r, conventions)
            if pair.place is not None and (
                place is None or place[0] != pair.place or (shared and place[1] != pair.tied)
            ):
                out.append(
                    {
                        "what": "place",
                        "where": where,
                        "file": _place_text(pair.place, pair.tied and shared),
                        "ours": _place_text(place[0], place[1] and shared) if place else "",
                        "tried": tried,
                    }
                )
    out += _overall_differences(tournament, event, tried)
    return out


def _overall_differences(tournament: Tournament, event: FileEvent, tried: dict) -> list[dict]:
    """A multi-session file's overall ranking against ours (total, percentage, place)."""
    if not event.totals:
        return []
    ours = {
        r.entry_id: r
        for r in StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.EVENT)
    }
    out = []
    for pair, entry in overall_entries(tournament, event):
        r = ours.get(entry)
        where = _("Overall, %(players)s") % {"players": " – ".join(p.name for p in pair.players)}
        for what, file_value, value in (
            ("total", pair.total, r.points if r else None),
            ("percentage", pair.percentage, r.percentage if r else None),
        ):
            if differs(file_value, value):
                out.append(
                    {
                        "what": what,
                        "where": where,
                        "file": str(file_value),
                        "ours": "" if value is None else str(value),
                        "tried": tried,
                    }
                )
        if pair.place is not None and (r is None or r.place != pair.place):
            out.append(
                {
                    "what": "place",
                    "where": where,
                    "file": str(pair.place),
                    "ours": str(r.place) if r else "",
                    "tried": tried,
                }
            )
    return out

"""The movements core's advice in the club's language.

The core describes its suggestions in plain English for logs and tests; the pages build the
wording here from the suggestion's fields, so Spanish and Portuguese directors read their
own language.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# The course's session: 22-30 boards (``movements.advice``); shorter evenings (a club's
# weekday afternoon, a late start) are offered after those, down to this many boards.
COURSE_BOARDS = (22, 30)
SHORTEST_BOARDS = 12
SHOWN = 12
SHORTER_SHOWN = 6

KIND_LABELS = {
    "mitchell": gettext_lazy("Mitchell"),
    "howell": gettext_lazy("Howell"),
    "mitchell_pools": gettext_lazy("Mitchell in two pools"),
    "individual": gettext_lazy("Individual"),
    "round_robin": gettext_lazy("Round robin"),
    "swiss": gettext_lazy("Swiss"),
    "teams": gettext_lazy("Teams"),
}


def kind_label(kind: str) -> str:
    """A movement kind as the director reads it; unknown kinds are shown as they are."""
    label = KIND_LABELS.get(kind)
    return str(label) if label is not None else kind


def describe(suggestion) -> str:
    """One line naming a suggestion: kind, variant and rounds × boards."""
    s = suggestion
    values = {"rounds": s.rounds, "bpr": s.boards_per_round, "tables": s.tables}
    if s.kind == "mitchell":
        even = s.call.get("even")
        if s.tables % 2 == 0 and even == "twin":
            return _("Mitchell with a twin table, %(rounds)s rounds of %(bpr)s boards") % values
        if s.tables % 2 == 0:
            return _("Mitchell with a skip, %(rounds)s rounds of %(bpr)s boards") % values
        return _("Mitchell, %(rounds)s rounds of %(bpr)s boards") % values
    if s.kind == "howell":
        if s.rounds == 2 * s.tables - 1:
            return _("Complete Howell, %(rounds)s rounds of %(bpr)s boards") % values
        return _("Shortened Howell, %(rounds)s rounds of %(bpr)s boards") % values
    if s.kind == "mitchell_pools":
        values["half"] = s.call.get("tables", s.tables // 2)
        return (
            _(
                "Two sections of %(half)s tables on the same boards, %(rounds)s rounds of "
                "%(bpr)s boards"
            )
            % values
        )
    if s.kind == "round_robin":
        return _("Round robin, %(rounds)s matches of %(bpr)s boards") % values
    if s.kind == "swiss":
        return _("Swiss, %(rounds)s rounds of %(bpr)s boards") % values
    return s.description


def suggestions(pairs: int) -> list[tuple[object, bool]]:
    """The advice for ``pairs`` pairs, best first, as ``(suggestion, shorter)``: the
    movements of a course session (22-30 boards), then the best of the shorter evenings,
    flagged, so a club that plays fewer boards still gets a suggestion. Empty if the core
    has none (fewer than 4 pairs)."""
    from tournaments.movements import MovementError, advise

    if pairs < 4:
        return []
    try:
        course = advise(pairs, boards=COURSE_BOARDS)[:SHOWN]
        shorter = advise(pairs, boards=(SHORTEST_BOARDS, COURSE_BOARDS[0] - 1))
    except MovementError:
        return []
    seen, short = set(), []
    for s in shorter:  # one per length of evening, the most comparisons first
        if s.boards not in seen:
            seen.add(s.boards)
            short.append(s)
    short = sorted(short[:SHORTER_SHOWN], key=lambda s: -s.boards)
    return [(s, False) for s in course] + [(s, True) for s in short]

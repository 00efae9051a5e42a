"""The conventions of ``usebio_conventions`` in words, in the reader's language: the import
report and the event page say which rules reproduced the file and which others were tried."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from ..models import VPScale

RULE_NAMES = {
    "marks": {
        "neuberg": _("Neuberg-factored marks per line"),
        "raw": _("raw marks per line on the board's own top"),
    },
    "factoring": {
        "neuberg": _("Neuberg when totalling"),
        "ratio": _("plain ratio when totalling"),
        "average": _("each missing result an average (S + (E − N))"),
    },
    "totals": {
        "played": _("totals on the boards played"),
        "factored": _("totals factored up to the full set"),
        "percentage": _("the total written as the percentage"),
    },
    "butler_datum": {
        "course": _("datum without the top and bottom results"),
        "mean": _("datum the mean of all results"),
        "trim2": _("datum without the two top and two bottom results"),
    },
    "butler_round_to": {None: _("datum not rounded"), 10: _("datum rounded to 10")},
    "butler_field": {"section": _("datum per section"), "field": _("datum over the field")},
    "cross_imps": {
        "average": _("cross-IMPs averaged over the comparisons"),
        "sum": _("cross-IMPs summed over the comparisons"),
        "factored": _("cross-IMPs summed and factored up to the fullest board"),
    },
    "cross_round": {
        None: _("totals of the exact cross-IMPs"),
        2: _("cross-IMPs rounded to 0.01 before totalling"),
        1: _("cross-IMPs rounded to 0.1 before totalling"),
        0: _("cross-IMPs rounded to whole IMPs before totalling"),
    },
    "cross_field": {
        "section": _("cross-IMPs compared within each section"),
        "field": _("cross-IMPs compared over the sections sharing the boards"),
    },
    "cross_half": {
        "away": _("halves rounded away from zero"),
        "even": _("halves rounded to the even figure"),
    },
    "vp_scale": {scale.value: scale.label for scale in VPScale},
    "vp_places": {2: _("VPs to two decimals, as the WBF gives them"), 1: _("VPs rounded to 0.1")},
    "vp_loser": {
        "own": _("each team's VPs from its own margin"),
        "complement": _("the loser's VPs 20 minus the winner's"),
    },
    "places": {"shared": _("tied places shared (3=)")},
    "artificial": {"awarded": _("artificial scores as awarded")},
}


def alternatives(conventions: dict) -> list[str]:
    """The other rules tried for each recognised convention (they reproduced the file less
    well), in words: a difference left over is one no known convention explains."""
    return [
        str(name)
        for key, value in conventions.items()
        if key in RULE_NAMES
        for other, name in RULE_NAMES[key].items()
        if other != value
    ]


BOARD_STYLES = {
    "raw": _("raw marks"),
    "neuberg": _("Neuberg"),
    "ratio": _("plain ratio"),
    "average": _("averages for the missing results"),
}


def describe(conventions: dict) -> list[str]:
    """The conventions in words, in the reader's language."""
    out = [str(RULE_NAMES[k].get(v, f"{k}={v}")) for k, v in conventions.items() if k in RULE_NAMES]
    if conventions.get("display_top"):
        out.append(
            _("marks shown on a top of %(top)s, the totals and percentages from the exact marks")
            % {"top": conventions["display_top"]}
        )
    boards = conventions.get("board_marks") or {}
    if boards:
        out.append(
            _("boards written otherwise: %(boards)s")
            % {
                "boards": ", ".join(
                    f"{key} ({BOARD_STYLES.get(style, style)})"
                    for key, style in sorted(boards.items())
                )
            }
        )
    return out

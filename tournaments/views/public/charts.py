"""What the public pages hand to ``tournaments.charts.figures``: rows they already read,
turned into the figures' plain lines."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.charts import figures


def ranking(rows: list[dict], direction: str, heading: str, *, imps: bool, vps: bool):
    """A ranking group's bar chart (rows in place order, as ``services.results`` gives)."""
    mixed = len({row.get("section__letter") for row in rows}) > 1  # several sections
    lines = [
        figures.RankingLine(
            f"{row.get('section__letter') or '' if mixed else ''}{row['number'] or ''}",
            row["names"],
            row["percentage"],
            row["points"],
        )
        for row in rows
    ]
    return figures.ranking(
        f"ranking-{(direction or 'all').lower()}",
        heading,
        lines,
        imps=imps,
        unit=_("VPs") if vps else None,
    )


def board(number: int, frequencies: list[dict], *, imps: bool):
    """A board's frequency chart from the traveller's frequency table."""
    return figures.frequencies(
        f"board-{number}",
        number,
        [figures.Frequency(f["score"], f["count"], f["ns_mark"]) for f in frequencies],
        imps=imps,
    )


def history(points: list[dict]):
    """A player's sessions (``player_history.session_percentages``) as a line chart."""
    return figures.history(
        "history",
        [
            figures.SessionPoint(p["date"], p["name"], p["percentage"], p["club_average"])
            for p in points
        ],
    )


def team(totals: dict[int, list], lines: list[dict], chosen: int | None, unit: str):
    """The chosen team's running total round by round (the leader when none is chosen or
    the choice is not a team of the event), against the field's average."""
    names = {line["entry_id"]: f"{line['number']} {line['name']}" for line in lines}
    if chosen not in names or chosen not in totals:
        chosen = next(
            (
                line["entry_id"]
                for line in sorted(lines, key=lambda x: x["position"])
                if line["entry_id"] in totals
            ),
            None,
        )
    if chosen is None or not totals.get(chosen):
        return None, chosen
    rounds = len(totals[chosen])
    average = [
        sum(t[i] for t in totals.values() if len(t) > i)
        / max(sum(1 for t in totals.values() if len(t) > i), 1)
        for i in range(rounds)
    ]
    return figures.team_progress("team", names[chosen], unit, totals[chosen], average), chosen

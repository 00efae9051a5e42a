"""The words of the mails to players, composed in each member's language.

Kept apart from the decisions (``results_mail``, ``waiting_mail``): a ranking line, a board
that changed and the mails' subjects and texts, from plain data (dicts as stored on the
mailing), under ``translation.override`` of the member's language.
"""

from __future__ import annotations

from decimal import Decimal

from django.utils import translation
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _

from clubsite.mail.languages import language_of  # noqa: F401 (callers read it here)
from tournaments.scoring import methods
from tournaments.services.boards.bridge_words import seat_word
from tournaments.services.running.audit_log import readable


def line_text(line: dict | None) -> str:
    """ "3= of 10 (NS) · 55.20 %" from a stored ranking line; "not ranked" for none."""
    if not line:
        return _("not ranked")
    place = f"{line['place']}=" if line.get("tied") else str(line["place"])
    text = _("%(place)s of %(count)s") % {"place": place, "count": line["count"]}
    if line.get("direction"):
        text += f" ({seat_word(line['direction'])})"
    score = (
        f"{number_format(Decimal(line['percentage']), 2)} %"
        if line.get("percentage")
        else _points(line)
    )
    return f"{text} · {score}" if score else text


def _points(line: dict) -> str:
    """ "20,50 PV" (a teams event's victory points) or "12,00" (IMPs), as the reader writes
    numbers; a line stored before points were kept as decimals is shown as it was."""
    points = line.get("points", "")
    try:
        shown = number_format(Decimal(points), 2)
    except (ArithmeticError, ValueError):
        return points
    return f"{shown} {_('VPs')}" if line.get("unit") == methods.TEAM_VPS.suffix else shown


def _side(data: dict | None) -> str:
    if not data:
        return "—"
    if data.get("adjustment"):
        return readable("adjustment", data["adjustment"])
    parts = []
    if data.get("contract"):
        parts.append(readable("contract", data["contract"]))
    if data.get("declarer"):
        parts.append(readable("declarer", data["declarer"]))
    if data.get("ns_score") not in (None, ""):
        parts.append(_("NS %(score)s") % {"score": data["ns_score"]})
    return " ".join(parts) or "—"


def change_text(change: dict) -> str:
    """ "Session 1, board 7: 3NT N NS 400 → 4♠ S NS 420" from a stored change."""
    return _("Session %(session)s, board %(board)s: %(before)s → %(after)s") % {
        "session": change["session"],
        "board": change["board"],
        "before": _side(change.get("before")),
        "after": _side(change.get("after")),
    }


def _links(links: dict) -> list[str]:
    out = [_("Your scorecard: %(url)s") % {"url": url} for url in links.get("scorecards", [])]
    if links.get("results"):
        out.append(_("The results: %(url)s") % {"url": links["results"]})
    if links.get("pdf"):
        out.append(_("The results (PDF): %(url)s") % {"url": links["pdf"]})
    if links.get("profile"):
        out.append(
            _("Not wanting these mails? Untick “results by mail” on your page: %(url)s")
            % {"url": links["profile"]}
        )
    return out


def results_mail(
    *,
    club: str,
    tournament,
    member,
    language: str,
    line: dict | None,
    old: dict | None,
    changes: list[dict],
    correction: bool,
    links: dict,
) -> tuple[str, str]:
    """Subject and text of a results mail (or of a correction's) in ``language``."""
    with translation.override(language):
        names = {
            "club": club,
            "tournament": tournament.name,
            "name": member.first_name,
            "date": date_format(tournament.date, "DATE_FORMAT"),
        }
        if correction:
            subject = _("%(club)s: results of %(tournament)s corrected") % names
            lines = [
                _("Dear %(name)s,") % names,
                "",
                _(
                    "the results of %(tournament)s (%(date)s) were corrected after they "
                    "were published."
                )
                % names,
                "",
                _("What changed:"),
            ]
            whole = _("the classification")  # outside the f-string: makemessages finds it
            lines += [f"- {change_text(change)}" for change in changes] or [f"- {whole}"]
            label = (
                _("Your overall ranking: %(old)s → %(new)s")
                if (line or {}).get("overall")
                else _("Your ranking: %(old)s → %(new)s")
            )
            lines += ["", label % {"old": line_text(old), "new": line_text(line)}]
        else:
            subject = _("%(club)s: results of %(tournament)s") % names
            lines = [
                _("Dear %(name)s,") % names,
                "",
                _("the results of %(tournament)s (%(date)s) are published.") % names,
                "",
                (
                    _("Your overall ranking: %(line)s")
                    if (line or {}).get("overall")
                    else _("Your ranking: %(line)s")
                )
                % {"line": line_text(line)},
            ]
        lines += ["", *_links(links), "", club]
    return subject, "\n".join(lines)


def promoted_mail(*, club: str, tournament, member, language: str, link: str) -> tuple[str, str]:
    """Subject and text of the "you have a place" notice in ``language``."""
    with translation.override(language):
        names = {
            "club": club,
            "tournament": tournament.name,
            "name": member.first_name,
            "date": date_format(tournament.date, "DATE_FORMAT"),
        }
        subject = _("%(club)s: you have a place in %(tournament)s") % names
        lines = [
            _("Dear %(name)s,") % names,
            "",
            _(
                "a place became free in %(tournament)s (%(date)s) and your entry has moved "
                "up from the waiting list: you are playing."
            )
            % names,
        ]
        if link:
            lines += ["", _("Your entry: %(url)s") % {"url": link}]
        lines += ["", club]
    return subject, "\n".join(lines)

"""Importing a USEBIO 1.2 file as a finished tournament, then checking its figures.

The file becomes a tournament like any other: sections with a movement rebuilt from the
travellers (round and table when the file gives them, otherwise from who met whom),
entries whose players are members found by licence number (anyone else becomes a guest,
found again by licence or name next time), boards with the file's deals, and the results
as the director's entries (the file's score prevails over its contract, as on a paper
traveller). Sections of a session with the same boards are scored together (one pool).

Then our scoring core scores it (``services.classification``) and ``verify`` lists every
figure where the file and we disagree beyond the file's own rounding: pair totals,
percentages, places, each line's marks, and scores that do not match their contract. The
file's own figures are then kept as the event's result of record (``services.file_record``):
the pages show what the club published, our re-score is the check beside it. All of
it happens in one transaction: a file that fails anywhere leaves nothing behind but a
refused ``ResultImport`` saying why.
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments.services.classification import file_record

from ..models import Result, Tournament
from ..models.uploads import ImportState, ResultImport
from .usebio_conventions import describe
from .usebio_individual import import_individual
from .usebio_pairs import import_event
from .usebio_parse import FileEvent, UsebioError, parse
from .usebio_record import figures_of
from .usebio_teams import import_teams, verify_teams
from .usebio_verify import tried_words, verify, what_label

__all__ = ["AlreadyImported", "UsebioError", "import_file", "import_event", "report_text"]


class AlreadyImported(UsebioError):
    """The file (same content, or the same scorer's event) was imported before; ``replace``
    imports it again in place of the earlier tournament."""

    def __init__(self, tournament: Tournament) -> None:
        super().__init__(
            _(
                "This file is already imported as “%(name)s” (%(slug)s). Import it "
                "again with “replace” to put this file in its place."
            )
            % {"name": tournament.name, "slug": tournament.slug},
            "duplicate",
        )
        self.tournament = tournament


def content_hash(data: bytes | str) -> str:
    raw = data.encode() if isinstance(data, str) else data
    return hashlib.sha256(raw).hexdigest()


def earlier_import(digest: str, event: FileEvent) -> Tournament | None:
    """The tournament made from this file before: the same bytes, or the same scorer's event
    (its EVENT_IDENTIFIER, on the same date) written again with other figures."""
    found = Tournament.objects.filter(import_hash=digest).first()
    if found is None and event.identifier:
        found = Tournament.objects.filter(
            import_identifier=event.identifier, date=event.date
        ).first()
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
    return (
        "".join(c for c in file_name if c.isprintable()).encode("utf-8", "replace").decode("utf-8")
    )


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
    pending = (
        ResultImport.objects.filter(key=key, state=ImportState.RUNNING).first() if key else None
    )
    if pending is None:
        return ResultImport.objects.create(key=key, **fields)
    for name, value in fields.items():
        setattr(pending, name, value)
    pending.save()
    return pending


def import_file(
    data: bytes | str, *, file_name: str = "", user=None, key: str = "", replace: bool = False
) -> ResultImport:
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
            if event.method.is_teams:
                tournament, outcome = import_teams(event, user=user, file_name=file_name)
                _progress(key, 80)
                differences = outcome["notes"] + verify_teams(tournament, event)
            elif event.event_type == "INDIVIDUAL":
                tournament, outcome = import_individual(event, user=user, file_name=file_name)
                _progress(key, 80)
                differences = outcome["notes"] + verify(tournament, event)
            else:
                tournament, outcome = import_event(event, user=user, file_name=file_name)
                _progress(key, 80)
                differences = outcome["notes"] + verify(tournament, event)
            # verified against our re-score; the pages show the file's own figures
            file_record.keep(tournament, figures_of(tournament, event))
            outcome["summary"]["of_record"] = "file"
            Tournament.objects.filter(pk=tournament.pk).update(
                import_hash=digest, import_identifier=event.identifier
            )
            summary = outcome["summary"]
            if replaced:
                summary["replaced"] = replaced
            record = _record(
                key,
                file_name=file_name[:200],
                tournament=tournament,
                state=ImportState.DONE,
                summary=summary,
                differences=differences,
                created_by=user,
            )
        _progress(key, 100)
        return record
    except UsebioError as exc:
        _record(
            key,
            file_name=file_name[:200],
            state=ImportState.FAILED,
            error=exc.message,
            tournament=exc.tournament if isinstance(exc, AlreadyImported) else None,
            summary={"duplicate": True} if isinstance(exc, AlreadyImported) else {},
            created_by=user,
        )
        _progress(key, 100)
        raise


def report_text(record: ResultImport) -> str:
    """The verify report as plain text (the command prints it; the page shows a table)."""
    if record.state == ImportState.FAILED:
        return _("Refused: %(error)s") % {"error": record.error}
    s = record.summary
    lines = (
        []
        if "replaced" not in s
        else [_("It replaces the earlier import %(slug)s.") % {"slug": s["replaced"]}]
    )
    lines += [
        _("Imported “%(event)s” as %(slug)s.")
        % {"event": s.get("event"), "slug": record.tournament.slug if record.tournament else "-"},
        (
            _(
                "%(teams)s teams (%(members)s members matched by licence, %(guests)s guests), "
                "%(matches)s matches, %(boards)s boards, %(lines)s results, %(deals)s deals."
            )
            if "teams" in s
            else _(
                "%(players)s players (%(members)s members matched by licence, %(guests)s guests), "
                "%(boards)s boards, %(lines)s results, %(deals)s deals."
            )
            if "players" in s
            else _(
                "%(pairs)s pairs (%(members)s members matched by licence, %(guests)s guests), "
                "%(boards)s boards, %(lines)s results, %(deals)s deals."
            )
        )
        % s,
    ]
    if s.get("conventions"):
        lines.append(
            _("Conventions of the file: %(rules)s.")
            % {"rules": "; ".join(describe(s["conventions"]))}
        )
    if not record.differences:
        lines.append(_("Verify: our scoring reproduces every figure of the file."))
    else:
        lines.append(
            _("Verify: %(count)s differences between the file and our scoring:")
            % {"count": len(record.differences)}
        )
        # the words outside the f-strings: makemessages finds no call inside one
        file_word = pgettext("verify report", "file")
        ours_word = pgettext("verify report", "ours")
        tried_word = pgettext("verify report", "rules tried")
        for d in record.differences:
            lines.append(
                f"  {d['where']}: {what_label(d['what'])} {file_word} {d['file']} · "
                f"{ours_word} {d['ours'] or '-'}"
                + (
                    f" · {tried_word}: {tried_words(d['tried'])}"
                    if d.get("tried") is not None and d["tried"] != ""
                    else ""
                )
            )
    return "\n".join(lines)

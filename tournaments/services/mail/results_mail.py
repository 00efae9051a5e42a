"""Results by mail: the director previews every mail, confirms, a worker sends each once.

After the final results are published the director opens the tournament's results mail:
each player with an e-mail address who has not opted out (``Member.results_mail``) gets
their ranking line, a link to their scorecard of each session and to the results PDF, in
their own language (``Member.language``, else the club's). Nothing is sent from the
preview. Confirming records a ``ResultsMailing`` for the results version previewed and one
``PlayerMail`` per member, then the worker sends them (``jobs.mail``).

Once results were mailed, a later version (a correction) offers a correction mail: it says
which boards changed (the audit trail since the last mailing) and each player's old → new
ranking line, and goes to the players whose line changed. One mailing per results version:
confirming the same preview twice sends nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from clubsite.models import Club, Member
from clubsite.web.collation import collated
from tournaments import queueing
from tournaments.models import (
    AuditAction,
    AuditEntry,
    EntryPlayer,
    EntryStatus,
    EventType,
    MailingKind,
    PlayerMail,
    RankingScope,
    ResultsMailing,
    Seating,
    StoredRanking,
    Tournament,
    TournamentStatus,
)
from tournaments.services.classification.classify import ensure_current, is_stale
from tournaments.services.errors import TournamentError
from tournaments.services.mail import mail_texts

# A player's line in the widest ranking they are in: the tournament's, the pool's, the section's.
SCOPE_ORDER = {RankingScope.EVENT: 0, RankingScope.POOL: 1, RankingScope.SECTION: 2}
CHANGING = (
    AuditAction.CORRECTED,
    AuditAction.ADJUSTED,
    AuditAction.DELETED,
    AuditAction.ENTERED,
    AuditAction.TABLE_EDIT,
    AuditAction.RESOLVED,
)


@dataclass(frozen=True)
class Draft:
    """One mail as the preview shows it."""

    member: Member
    language: str
    subject: str
    body: str
    line: dict | None
    old: dict | None


@dataclass
class Preview:
    kind: str
    version: str
    drafts: list[Draft] = field(default_factory=list)
    left_out: list[tuple[Member, str]] = field(default_factory=list)
    changes: list[dict] = field(default_factory=list)
    previous: ResultsMailing | None = None
    lines: dict = field(default_factory=dict)

    @property
    def is_correction(self) -> bool:
        return self.kind == MailingKind.CORRECTION

    @property
    def up_to_date(self) -> bool:
        """These very results were mailed already."""
        return self.previous is not None and self.previous.version == self.version


def ranking_lines(tournament: Tournament) -> dict[int, dict]:
    """Each entry's line (by entry id) in the widest stored ranking it appears in: the
    overall ranking of a tournament of several sessions, a teams event's, else the pool's
    or the section's. The score is the ranking's points (victory points for teams), never
    the exact fraction kept for breaking ties ("1225/27") nor a team's IMPs won-lost."""
    unit = tournament.method.suffix
    several = tournament.session_count > 1
    rows = list(
        StoredRanking.objects.filter(tournament=tournament).select_related("session").order_by("pk")
    )
    groups: dict[tuple, int] = {}
    for row in rows:
        key = (row.scope, row.session_id, row.section_id, row.pool, row.direction)
        groups[key] = groups.get(key, 0) + 1
    best: dict[int, tuple[int, dict]] = {}
    for row in rows:
        rank = SCOPE_ORDER.get(row.scope, 9)
        if row.entry_id in best and best[row.entry_id][0] <= rank:
            continue
        key = (row.scope, row.session_id, row.section_id, row.pool, row.direction)
        best[row.entry_id] = (
            rank,
            {
                "place": row.place,
                "tied": row.tied,
                "count": groups[key],
                "direction": row.direction if row.scope != RankingScope.EVENT else "",
                "percentage": f"{row.percentage:.2f}" if row.percentage is not None else "",
                "points": f"{row.points}",
                "unit": unit,
                "overall": several and row.scope == RankingScope.EVENT,
            },
        )
    return {entry: line for entry, (_rank, line) in best.items()}


def board_changes(tournament: Tournament, since) -> list[dict]:
    """The results changed since ``since`` (the last mailing), oldest first, as stored data."""
    rows = (
        AuditEntry.objects.filter(tournament=tournament, action__in=CHANGING, at__gt=since)
        .select_related("session", "result__board")
        .order_by("at", "pk")
    )
    out = []
    for row in rows:
        board = row.result.board.number if row.result_id and row.result.board_id else None
        if board is None or row.session is None:
            continue
        out.append(
            {
                "session": row.session.number,
                "board": board,
                "before": row.before or {},
                "after": row.after or {},
            }
        )
    return out


def _players(tournament: Tournament) -> list[tuple[Member, int]]:
    seats = (
        EntryPlayer.objects.filter(entry__tournament=tournament, entry__status=EntryStatus.ACTIVE)
        .select_related("member")
        .order_by(*collated("member__last_name", "member__first_name"))
    )
    players: dict[int, tuple[Member, int]] = {}
    for seat in seats:  # a member is in one active entry; were they in two, mailed once
        players.setdefault(seat.member_id, (seat.member, seat.entry_id))
    return list(players.values())


def _links(tournament: Tournament, entry_id: int, sessions: dict, base_url: str) -> dict:
    """A pair's scorecard of each session; teams and individuals, whose pages are the
    event's, get the results page instead."""
    base = base_url.rstrip("/")
    pairs = tournament.event_type == EventType.PAIRS
    return {
        "scorecards": [
            base + reverse("results:scorecard", args=[tournament.slug, number, entry_id])
            for number in sessions.get(entry_id, [])
        ]
        if pairs
        else [],
        "results": "" if pairs else base + reverse("results:tournament", args=[tournament.slug]),
        "pdf": base + reverse("results:pdf", args=[tournament.slug]),
        "profile": base + reverse("clubsite:profile"),
    }


def _played(tournament: Tournament) -> list:
    return list(tournament.sessions.filter(sections__isnull=False).distinct().order_by("number"))


def current_version(tournament: Tournament) -> str:
    """Bring every played session's ranking up to date; the results' version ("3.1", as the
    PDF's: each played session's ranking version)."""
    sessions = _played(tournament)
    for session in sessions:
        ensure_current(session)
    return ".".join(str(s.ranking_version) for s in sessions) or "0"


def mail_state(tournament: Tournament) -> str:
    """For the tournament's page: "" (results not final), "unsent" (final, never mailed),
    "correction" (mailed, and the stored rankings moved on since) or "sent"."""
    if tournament.status != TournamentStatus.FINAL:
        return ""
    last = tournament.mailings.order_by("-created_at", "-pk").first()
    if last is None:
        return "unsent"
    sessions = _played(tournament)
    stored = ".".join(str(s.ranking_version) for s in sessions) or "0"
    moved = stored != last.version or any(is_stale(s) for s in sessions)
    return "correction" if moved else "sent"


def preview(tournament: Tournament, base_url: str = "") -> Preview:
    """Every mail that would go out now, and who is left out and why."""
    if tournament.status != TournamentStatus.FINAL:
        raise TournamentError(_("Publish the final results before mailing them."))
    previous = tournament.mailings.order_by("-created_at", "-pk").first()
    kind = MailingKind.CORRECTION if previous else MailingKind.RESULTS
    out = Preview(kind=kind, version=current_version(tournament), previous=previous)
    if previous is not None:
        out.changes = board_changes(tournament, previous.created_at)
    by_entry = ranking_lines(tournament)
    sessions: dict[int, list[int]] = {}
    for entry_id, number in (
        Seating.objects.filter(session__tournament=tournament)
        .order_by("session__number")
        .values_list("entry_id", "session__number")
    ):
        sessions.setdefault(entry_id, []).append(number)
    club = Club.current().name
    for member, entry_id in _players(tournament):
        line = by_entry.get(entry_id)
        out.lines[str(member.pk)] = line
        old = previous.lines.get(str(member.pk)) if previous else None
        if not member.email:
            out.left_out.append((member, _("no e-mail address")))
        elif not member.results_mail:
            out.left_out.append((member, _("does not want results by mail")))
        elif line is None:
            out.left_out.append((member, _("not in the ranking")))
        elif previous is not None and old == line:
            out.left_out.append((member, _("ranking unchanged")))
        else:
            language = mail_texts.language_of(member)
            subject, body = mail_texts.results_mail(
                club=club,
                tournament=tournament,
                member=member,
                language=language,
                line=line,
                old=old,
                changes=out.changes,
                correction=previous is not None,
                links=_links(tournament, entry_id, sessions, base_url),
            )
            out.drafts.append(Draft(member, language, subject, body, line, old))
    return out


def confirm(tournament: Tournament, *, version: str, user, base_url: str) -> ResultsMailing:
    """Record the mailing the director previewed (``version``) and queue its mails."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update(no_key=True).get(pk=tournament.pk)
        if tournament.mailings.filter(version=version).exists():
            raise TournamentError(_("These results were already mailed."))
        shown = preview(tournament, base_url)
        if shown.version != version:
            raise TournamentError(
                _(
                    "The results changed after this preview was made: read "
                    "the new preview and send again."
                )
            )
        if not shown.drafts:
            raise TournamentError(
                _(
                    "Nobody is left to mail: no player has an e-mail address "
                    "and wants results by mail, or no ranking line changed."
                )
            )
        try:
            with transaction.atomic():
                mailing = ResultsMailing.objects.create(
                    tournament=tournament,
                    kind=shown.kind,
                    version=version,
                    lines=shown.lines,
                    changes=shown.changes,
                    base_url=base_url,
                    created_by=user,
                )
        except IntegrityError as exc:
            raise TournamentError(_("These results were already mailed.")) from exc
        rows = PlayerMail.objects.bulk_create(
            PlayerMail(
                kind=shown.kind,
                tournament=tournament,
                mailing=mailing,
                member=draft.member,
                email=draft.member.email,
                language=draft.language,
                subject=draft.subject,
                body=draft.body,
            )
            for draft in shown.drafts
        )
        ids = [row.pk for row in rows]
        transaction.on_commit(lambda: queueing.player_mails(ids))
    return mailing


def history(tournament: Tournament) -> list[dict]:
    """Each mailing of the tournament, newest first, with how many mails went out."""
    out = []
    for mailing in tournament.mailings.select_related("created_by").order_by("-created_at"):
        mails = list(mailing.mails.select_related("member"))
        out.append(
            {
                "mailing": mailing,
                "total": len(mails),
                "sent": sum(1 for m in mails if m.sent_at),
                "failed": sum(1 for m in mails if m.error and not m.sent_at),
                "mails": mails,
            }
        )
    return out

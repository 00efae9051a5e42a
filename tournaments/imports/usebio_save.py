"""Writing an imported event through the services: its people, deals and result rows, then
closing it. Shared by the pairs, teams and individual importers, which sit above it."""

from __future__ import annotations

from decimal import Decimal

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.models import Member
from tournaments.services.classification.classify import classify_tournament
from tournaments.services.table import board_states, result_checks

from ..models import (
    AuditAction,
    AuditEntry,
    Board,
    EntryPlayer,
    PointsAward,
    PointsAwarding,
    Result,
    SessionStatus,
    Tournament,
    TournamentStatus,
)
from ..models.points import results_version
from ..scoring import board_conditions
from ..services.errors import TournamentError
from .usebio_parse import FileEvent, FileLine, FilePair, FilePlayer, FileSection, UsebioError


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
        licences = {
            p.licence for s in event.sections for pair in s.pairs for p in pair.players if p.licence
        }
        self.by_licence = {
            m.licence_number: m for m in Member.objects.filter(licence_number__in=licences)
        }
        self.matched: set[int] = set()
        self.guests: set[int] = set()
        self.points: dict[int, Decimal] = {}  # the file's master points, by member

    def member(self, player: FilePlayer) -> Member:
        found = self._member(player)
        if player.master_points is not None:
            self.points[found.pk] = player.master_points.quantize(Decimal("0.01"))
        return found

    def _member(self, player: FilePlayer) -> Member:
        found = self.by_licence.get(player.licence) if player.licence else None
        if found is not None:
            (self.guests if found.is_guest else self.matched).add(found.pk)
            return found
        first, last = _split_name(player.name)
        if not player.licence:
            found = Member.objects.filter(
                is_guest=True, licence_number="", first_name=first, last_name=last
            ).first()
        if found is None:
            found = Member.objects.create(
                first_name=first[:80],
                last_name=last[:120],
                licence_number=player.licence[:30],
                is_guest=True,
            )
            if player.licence:
                self.by_licence[player.licence] = found
        self.guests.add(found.pk)
        return found


def pair_key(pair: FilePair) -> tuple:
    return tuple(sorted(p.licence or p.name.casefold() for p in pair.players))


def pools_of(sections: list[FileSection], per_section: bool = False) -> dict[int, str]:
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
        return result_checks.normalise_lead(text)
    except TournamentError:
        return ""


def save_deals(
    tournament: Tournament,
    deals: dict[int, str],
    conditions: dict[int, tuple[str, str]] | None = None,
) -> None:
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


def result_fields(board: Board, line: FileLine, notes: list[dict], where: str) -> dict:
    """The result row's fields; the contract is checked against Law 77 when the file gives
    the tricks, and a score that does not match its contract is noted (the score stands)."""
    data = {
        "contract": "",
        "declarer": "",
        "tricks": None,
        "ns_score": line.score,
        "lead": _lead(line.lead),
        "adjustment": line.adjustment,
    }
    contract = line.contract.strip()
    # some programs write a passed-out board's contract NP, its score 0 and its marks
    passed = contract.upper() in PASS_WORDS or (
        contract.upper() == "NP" and line.score in (0, None) and line.adjustment is None
    )
    if contract and (passed or line.tricks is not None):
        try:
            played = result_checks.scored(
                board,
                "PASS" if passed else contract,
                "" if passed else line.declarer,
                None if passed else line.tricks,
            )
        except TournamentError as exc:
            raise UsebioError(
                _("%(where)s: %(problem)s") % {"where": where, "problem": exc.message}
            ) from exc
        data.update(
            contract=played["contract"], declarer=played["declarer"], tricks=played["tricks"]
        )
        if passed:  # no lead on a passed-out board; its score is 0 whatever the file left
            data.update(lead="", ns_score=0 if line.adjustment is None else line.score)
        if line.adjustment is None and line.score is not None and line.score != played["ns_score"]:
            notes.append(
                {
                    "what": "score",
                    "where": where,
                    "file": str(line.score),
                    "ours": str(played["ns_score"]),
                }
            )
    elif contract:
        data.update(contract=contract[:8], declarer=line.declarer)
    if line.adjustment is None and data["ns_score"] is None:
        raise UsebioError(_("%(where)s: the line has no score.") % {"where": where})
    return data


def save_results(rows: list[Result]) -> None:
    try:
        with transaction.atomic():
            for row in rows:  # new rows without a trail: their state follows from them
                board_states.settle(row)
            Result.objects.bulk_create(rows, batch_size=1000)
    except IntegrityError as exc:
        raise UsebioError(
            _("The file has two results for the same pairs on the same board.")
        ) from exc


def finish(
    tournament: Tournament,
    *,
    user=None,
    file_name: str = "",
    points: dict[int, Decimal] | None = None,
) -> None:
    """Close the sessions, score them with our cores and publish the final results; the
    master points the file awarded (``points``, by member) are kept as this event's."""
    tournament.sessions.update(status=SessionStatus.FINISHED, finished_at=timezone.now())
    classify_tournament(tournament)
    now = timezone.now()
    Tournament.objects.filter(pk=tournament.pk).update(
        status=TournamentStatus.FINAL, published_at=now, correction_minutes=0
    )
    tournament.refresh_from_db()
    lines = Result.objects.filter(section__session__tournament=tournament).count()
    AuditEntry.objects.create(
        tournament=tournament,
        action=AuditAction.PUBLISHED,
        user=user,
        before={"results": 0},
        after={"status": tournament.status, "imported": file_name, "results": lines},
        reason=_("Imported from a USEBIO file."),
    )
    if points:
        _keep_points(tournament, points, user, file_name)


def _keep_points(tournament: Tournament, points: dict[int, Decimal], user, file_name: str) -> None:
    """The file's MASTER_POINTS_AWARDED, stored as the event's awards (a later correction
    awards the club's scale instead, ``services.master_points``)."""
    entries = dict(
        EntryPlayer.objects.filter(entry__tournament=tournament, member__in=points).values_list(
            "member_id", "entry_id"
        )
    )
    field = tournament.entries.count()
    PointsAward.objects.bulk_create(
        PointsAward(
            tournament=tournament,
            member_id=member,
            entry_id=entries.get(member),
            points=value,
            entry_points=value,
            field=field,
        )
        for member, value in points.items()
    )
    PointsAwarding.objects.create(
        tournament=tournament,
        awarded_at=timezone.now(),
        by=user,
        scale_name=file_name or "USEBIO",
        version=results_version(tournament),
    )
    AuditEntry.objects.create(
        tournament=tournament,
        action=AuditAction.POINTS,
        user=user,
        after={
            f"{m.full_name} (#{m.pk})": str(points[m.pk])
            for m in Member.objects.filter(pk__in=points)
        },
        reason=_("Master points read from the imported file."),
    )


def result_reason(file_name: str) -> str:
    return _("Imported from %(file)s") % {"file": file_name} if file_name else ""

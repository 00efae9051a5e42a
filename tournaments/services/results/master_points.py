"""Master points: the scale applied to a tournament's final ranking, and the awards kept.

The rules (``entry_points``, ``award_field``) are pure: a field is one ranking with its own
winner (a two-winner Mitchell has two, North-South and East-West), its size the number of
pairs, teams or players ranked in it. An entry receives the better of

- its place's points: entries sharing a place share the points of the places they cover
  equally (two pairs equal 2nd share the 2nd and 3rd places' points), and
- the points of the highest percentage threshold it reached,

from the rows of its kind of event whose field range holds the field. With the scale's
``split`` the entry's points are divided equally between its players, otherwise each
player receives them whole. Amounts are rounded to the hundredth, half up.

Awarding (``award``) happens once the results are final: the director awards at once, or
``award_due`` does it for every final tournament of the season whose correction period has
ended (run by the worker's sweep, ``jobs.sweep``, and when the secretary saves the scale). No
page awards while it is read: a GET writes nothing. A later change to the results of an awarded tournament (a correction) re-awards it:
the awards are replaced, never added to, and the audit trail keeps the before and after.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubsite.models import Member, Season
from clubsite.web.collation import Collated
from tournaments.models import (
    AuditAction,
    AuditEntry,
    EntryPlayer,
    PointsAward,
    PointsAwarding,
    PointsScale,
    PointsScaleRow,
    RankingScope,
    StoredRanking,
    Tournament,
    TournamentStatus,
)
from tournaments.models.points import results_version
from tournaments.models.rankings import HEADLINE_ORDER
from tournaments.services.classification.store import store_if_stale
from tournaments.services.errors import TournamentError
from tournaments.services.results.results_pdf import results_corrected

CENT = Decimal("0.01")


def cents(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class ScaleRow:
    category: str
    min_field: int
    max_field: int | None
    place: int | None
    min_percentage: Decimal | None
    points: Decimal

    def applies(self, category: str, field: int) -> bool:
        return (
            self.category == category
            and self.min_field <= field
            and (self.max_field is None or field <= self.max_field)
        )


@dataclass(frozen=True)
class Ranked:
    """One entry's line in a field: its place, percentage and players (member ids)."""

    entry_id: int
    place: int
    percentage: Decimal | None
    players: tuple[int, ...]


@dataclass(frozen=True)
class Award:
    member_id: int
    entry_id: int
    points: Decimal
    entry_points: Decimal
    place: int
    tied: bool
    field: int


def place_points(rows: Iterable[ScaleRow], category: str, field: int, place: int) -> Decimal:
    """The points of one place (the first matching row; the scale editor allows one)."""
    for row in rows:
        if row.place == place and row.applies(category, field):
            return row.points
    return Decimal(0)


def entry_points(
    rows: list[ScaleRow],
    category: str,
    field: int,
    place: int,
    sharing: int,
    percentage: Decimal | None,
) -> Decimal:
    """An entry's points: its (shared) place's, or its percentage's if better."""
    sharing = max(1, sharing)
    by_place = (
        sum(
            (place_points(rows, category, field, p) for p in range(place, place + sharing)),
            Decimal(0),
        )
        / sharing
    )
    by_percentage = Decimal(0)
    if percentage is not None:
        reached = [
            row.points
            for row in rows
            if row.min_percentage is not None
            and row.place is None
            and row.applies(category, field)
            and percentage >= row.min_percentage
        ]
        by_percentage = max(reached, default=Decimal(0))
    return cents(max(by_place, by_percentage))


def award_field(
    rows: list[ScaleRow], category: str, field: list[Ranked], split: bool
) -> list[Award]:
    """Every player's award in one field (players with no points left out)."""
    size = len(field)
    at_place: dict[int, int] = defaultdict(int)
    for line in field:
        at_place[line.place] += 1
    out = []
    for line in sorted(field, key=lambda x: (x.place, x.entry_id)):
        points = entry_points(
            rows, category, size, line.place, at_place[line.place], line.percentage
        )
        if points <= 0 or not line.players:
            continue
        each = cents(points / len(line.players)) if split else points
        out.extend(
            Award(member, line.entry_id, each, points, line.place, at_place[line.place] > 1, size)
            for member in line.players
        )
    return out


def award_fields(
    rows: list[ScaleRow], category: str, fields: list[list[Ranked]], split: bool
) -> dict[int, Award]:
    """Awards of all a tournament's fields, one per player (a player in two fields, which
    does not happen in one event, keeps the better award)."""
    out: dict[int, Award] = {}
    for field in fields:
        for award in award_field(rows, category, field, split):
            have = out.get(award.member_id)
            if have is None or award.points > have.points:
                out[award.member_id] = award
    return out


def overlaps(rows: list[ScaleRow]) -> list[tuple[int, int]]:
    """Pairs of rows (indexes, first < second) that give the same place or the same
    percentage threshold in the same kind of event to field sizes they both cover: the
    scale would not say which one counts."""
    out = []
    for i, a in enumerate(rows):
        for j in range(i + 1, len(rows)):
            b = rows[j]
            same_key = (a.place, a.min_percentage) == (b.place, b.min_percentage)
            top_a, top_b = a.max_field or 10**6, b.max_field or 10**6
            if (
                a.category == b.category
                and same_key
                and a.min_field <= top_b
                and b.min_field <= top_a
            ):
                out.append((i, j))
    return out


# --- reading the database -------------------------------------------------------------------


def scale_rows(scale: PointsScale) -> list[ScaleRow]:
    if scale.pk is None:  # the club has never saved one
        return []
    return [
        ScaleRow(r.category, r.min_field, r.max_field, r.place, r.min_percentage, r.points)
        for r in scale.rows.all()
    ]


def scale_key(scale: PointsScale) -> str:
    """A fingerprint of what the scale gives (its rows and whether points are shared; not
    its name): an award made under another key used an earlier scale."""
    rows = sorted(
        (
            r.category,
            r.min_field,
            r.max_field or 0,
            r.place or 0,
            str(r.min_percentage or ""),
            str(r.points),
        )
        for r in scale_rows(scale)
    )
    return hashlib.sha256(repr((scale.split, rows)).encode()).hexdigest()


def awarded_with_earlier_scale(season: Season) -> list[Tournament]:
    """The season's tournaments whose points were awarded under an earlier scale (the
    secretary changed it since): the director may award them again."""
    current = scale_key(PointsScale.load(create=False))
    return list(
        Tournament.objects.filter(
            date__gte=season.start, date__lte=season.end, points_awarding__isnull=False
        )
        .exclude(points_awarding__scale_key="")
        .exclude(points_awarding__scale_key=current)
        .order_by("date", "name")
    )


def fields_of(tournament: Tournament) -> list[list[Ranked]]:
    """The tournament's headline rankings (all sessions, else all sections on the same
    boards, else each section and line), each a field of entries with their players."""
    best: dict[int, dict] = {}
    for row in StoredRanking.objects.filter(tournament=tournament).values(
        "entry_id", "scope", "session_id", "section_id", "pool", "direction", "place", "percentage"
    ):
        have = best.get(row["entry_id"])
        if have is None or HEADLINE_ORDER[row["scope"]] < HEADLINE_ORDER[have["scope"]]:
            best[row["entry_id"]] = row
    players: dict[int, list[int]] = defaultdict(list)
    for entry_id, member_id in (
        EntryPlayer.objects.filter(entry_id__in=best, active=True)
        .order_by("seat")
        .values_list("entry_id", "member_id")
    ):
        players[entry_id].append(member_id)
    groups: dict[tuple, list[Ranked]] = defaultdict(list)
    for entry_id, row in best.items():
        key = (
            row["scope"],
            None if row["scope"] == RankingScope.EVENT else row["session_id"],
            row["section_id"] if row["scope"] == RankingScope.SECTION else None,
            row["pool"],
            row["direction"],
        )
        groups[key].append(
            Ranked(entry_id, row["place"], row["percentage"], tuple(players[entry_id]))
        )
    return [groups[key] for key in sorted(groups, key=str)]


def compute(tournament: Tournament) -> dict[int, Award]:
    """What the scale gives each player of ``tournament`` now (nothing stored)."""
    scale = PointsScale.load(create=False)
    return award_fields(
        scale_rows(scale), str(tournament.event_type), fields_of(tournament), scale.split
    )


def award(tournament: Tournament, *, user=None, reason: str = "") -> int:
    """Award (or award again) ``tournament``'s points from its final results; returns how
    many players received points. The previous awards are replaced, in one transaction,
    and the audit trail records the totals before and after."""
    if tournament.status != TournamentStatus.FINAL:
        raise TournamentError(
            _("Master points are awarded from final results: publish the final results first.")
        )
    # Through ``store``: ``classify.classify_session`` calls this module once it has stored a
    # ranking, so here the ranking is stored without that follow-up (this is the award).
    stored = [
        store_if_stale(session)
        for session in tournament.sessions.filter(sections__isnull=False).distinct()
    ]
    if any(stored):
        transaction.on_commit(lambda: results_corrected(tournament.pk))  # the PDF follows
    scale = PointsScale.load()
    with transaction.atomic():
        Tournament.objects.select_for_update(no_key=True).filter(pk=tournament.pk).first()
        awards = award_fields(
            scale_rows(scale), str(tournament.event_type), fields_of(tournament), scale.split
        )
        old = _named(
            PointsAward.objects.filter(tournament=tournament).values_list("member_id", "points")
        )
        PointsAward.objects.filter(tournament=tournament).delete()
        PointsAward.objects.bulk_create(
            PointsAward(
                tournament=tournament,
                member_id=a.member_id,
                entry_id=a.entry_id,
                points=a.points,
                entry_points=a.entry_points,
                place=a.place,
                tied=a.tied,
                field=a.field,
            )
            for a in awards.values()
        )
        awarding = PointsAwarding.objects.filter(tournament=tournament).first()
        again = awarding is not None
        if awarding is None:
            awarding = PointsAwarding(tournament=tournament, times=0)
        awarding.awarded_at, awarding.by = timezone.now(), user
        awarding.scale_name, awarding.times = str(scale), awarding.times + 1
        awarding.version = results_version(tournament)
        awarding.scale_key = scale_key(scale)
        awarding.save()
        new = _named((a.member_id, a.points) for a in awards.values())
        AuditEntry.objects.create(
            tournament=tournament,
            action=AuditAction.POINTS,
            user=user,
            before=old if again else None,
            after=new,
            reason=reason
            or (_("Master points awarded again") if again else _("Master points awarded")),
        )
    return len(awards)


def _named(pairs: Iterable[tuple[int, Decimal]]) -> dict[str, str]:
    """Awards for the audit trail: player's name → points, as text."""
    pairs = list(pairs)
    full = {m.pk: m.full_name for m in Member.objects.filter(pk__in=[m for m, _p in pairs])}
    return {f"{full[m]} (#{m})": str(p) for m, p in sorted(pairs, key=lambda x: full[x[0]])}


def awarded(tournament: Tournament) -> PointsAwarding | None:
    return PointsAwarding.objects.filter(tournament=tournament).first()


def award_due(now=None) -> list[int]:
    """Award every final tournament of the current season whose correction period has
    ended and which was never awarded; returns their ids. Cheap when there are none. While
    the scale is empty nothing is awarded, so the season's tournaments are still waiting
    when the secretary fills it in."""
    if not PointsScaleRow.objects.exists():
        return []
    now = now or timezone.now()
    season = Season.for_date(timezone.localdate(now))
    due = []
    for tournament in Tournament.objects.filter(
        status=TournamentStatus.FINAL,
        date__gte=season.start,
        published_at__isnull=False,
        points_awarding__isnull=True,
    ):
        if tournament.correction_period_over(now):
            award(tournament, reason=_("Master points awarded: the correction period ended"))
            due.append(tournament.pk)
    return due


def results_changed(tournament_id: int) -> bool:
    """The results of a tournament were re-classified: an awarded one whose results
    changed since is awarded again (a correction after the award), and a final one never
    awarded whose correction period is over (and the scale has rows) is awarded now; True
    if it was. The pages only read the awards: points are due on these events, the
    secretary's scale and the worker's sweep (``award_due``), never while someone reads."""
    tournament = Tournament.objects.filter(pk=tournament_id, status=TournamentStatus.FINAL).first()
    if tournament is None:
        return False
    awarding = PointsAwarding.objects.filter(tournament=tournament).first()
    if awarding is None:
        season = Season.for_date(timezone.localdate())
        if (
            tournament.published_at is None
            or tournament.date < season.start
            or not tournament.correction_period_over()
            or not PointsScaleRow.objects.exists()
        ):
            return False
        award(tournament, reason=_("Master points awarded: the correction period ended"))
        return True
    if awarding.version == results_version(tournament):
        return False
    award(tournament, reason=_("Master points awarded again after a correction"))
    return True


# --- reading the awards ---------------------------------------------------------------------


def tournament_awards(tournament: Tournament) -> list[PointsAward]:
    """The tournament's awards, most points first (the director's tournament page)."""
    return list(
        PointsAward.objects.filter(tournament=tournament)
        .select_related("member")
        .order_by("-points", "place", Collated("member__last_name"))
    )

"""What the public results pages read: visible tournaments, their sessions' overview and the
stored rankings (scorecards and travellers: ``scorecards``; a member's history:
``player_history``; contracts and deals as shown: ``board_words``).

Everything here reads the stored classification (``StoredRanking`` / ``StoredMark``) in a
fixed number of queries whatever the field size; the only writes are re-classifications of
sessions whose rankings are stale (a result changed since they were stored), so a page never
shows rankings older than the results. Who may see a tournament is decided here too:
published (provisional or final) results, to everybody when the tournament's results are
public and to logged-in club users otherwise; events being played too where players follow
the running ranking (``running_ranking``), and the director sees every one being played. Which
boards of a session being played show their deal, traveller and other tables' scores is
``board_visibility``'s rule; ``traveller`` and ``scorecard`` take its answer.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from clubsite.accounts.permissions import Role, has_role
from tournaments.models import (
    Board,
    RankingScope,
    Seating,
    Section,
    Session,
    SessionStatus,
    StoredRanking,
    Tournament,
    TournamentStatus,
)
from tournaments.models.rankings import HEADLINE_ORDER
from tournaments.services.classification.classify import classify_session
from tournaments.services.classification.reclassification import request_classification
from tournaments.services.classification.session_data import newest_changes
from tournaments.services.results import board_visibility
from tournaments.services.results.results_pdf import PUBLISHED
from tournaments.services.setup import plan

# --- who sees what --------------------------------------------------------------------------


def visible_tournaments(user) -> QuerySet:
    """Tournaments whose results ``user`` may see, newest first, flagged ``in_progress``:
    published ones, and those being played where players follow the ranking during play
    (``live_ranking``; the director sees every one being played)."""
    playing = Q(status=TournamentStatus.RUNNING)
    if not has_role(user, Role.DIRECTOR):
        playing &= Q(live_ranking=True)
    queryset = Tournament.objects.filter(Q(status__in=PUBLISHED) | playing)
    if user is None or not user.is_authenticated:
        queryset = queryset.filter(public_results=True)
    running = Session.objects.filter(tournament=OuterRef("pk"), status=SessionStatus.RUNNING)
    return queryset.annotate(in_progress=Exists(running)).order_by("-date", "name")


def visible_tournament(user, slug: str) -> Tournament | None:
    return visible_tournaments(user).filter(slug=slug).first()


def visible_session(user, slug: str, number: int) -> Session | None:
    """The session (with its tournament, flagged ``in_progress``, and a teams event's
    settings, and its newest result and penalty changes for ``classification.is_stale``) if
    ``user`` may see that tournament's results; one query, as every live page starts here."""
    running = Session.objects.filter(
        tournament=OuterRef("tournament"), status=SessionStatus.RUNNING
    )
    session = next(
        iter(
            Session.objects.select_related("tournament", "tournament__team_event")
            .filter(
                tournament__in=visible_tournaments(user).filter(slug=slug).values("pk"),
                number=number,
            )
            # read with its newest changes: whether its ranking is current needs no query
            .annotate(tournament_in_progress=Exists(running), **newest_changes())
            .order_by()[:1]
        ),
        None,
    )
    if session is not None:
        session.tournament.in_progress = session.tournament_in_progress
        session.tournament.team_settings_read = True  # ``team_schedule.team_event``
    return session


# --- stale rankings -------------------------------------------------------------------------


def refresh(sessions) -> list[Session]:
    """Bring stale sessions up to date the way ``reclassification.follow_live`` does: one
    never classified is classified now, the others are requested from the worker. Returns
    the sessions classified in this call.

    Same rule as ``classification.is_stale``, checked for many sessions at once: one query
    for a queryset of sessions (read with their newest changes), one more for a list.
    """
    if isinstance(sessions, QuerySet):
        sessions = list(sessions.annotate(**newest_changes()))
    else:
        sessions = list(sessions)
        if sessions:
            stamps = {
                pk: (r, p)
                for pk, r, p in Session.objects.filter(pk__in=[s.pk for s in sessions])
                .order_by()
                .annotate(**newest_changes())
                .values_list("pk", "newest_result", "newest_penalty")
            }
            for s in sessions:
                s.newest_result, s.newest_penalty = stamps.get(s.pk, (None, None))
    return refresh_annotated(sessions)


def refresh_annotated(sessions: list) -> list:
    """``refresh`` for sessions already read with ``newest_changes``: no query, unless one
    was never classified (then it is, here)."""
    latest = {
        s.pk: max((x for x in (s.newest_result, s.newest_penalty) if x is not None), default=None)
        for s in sessions
    }
    redone = []
    for s in sessions:
        stamp = latest[s.pk]
        stale = s.ranking_version == 0 or (
            stamp is not None and (s.classified_through is None or stamp > s.classified_through)
        )
        if s.ranking_version == 0:  # never classified (a session read as plain values too)
            classify_session(s if isinstance(s, Session) else Session.objects.get(pk=s.pk))
            redone.append(s)
        elif stale and request_classification(s.pk):
            redone.append(s)
    return redone


# --- places ---------------------------------------------------------------------------------


def place_labels(rows: list[dict], prefix: str = "") -> None:
    """Add ``place_label``: "3" alone, "3-4" for two entries sharing third place (with a
    ``prefix``, "handicap_": the handicap ranking's ``handicap_place_label``)."""
    place, tied = f"{prefix}place", f"{prefix}tied"
    shared = Counter(r[place] for r in rows if r.get(tied))
    for r in rows:
        if r.get(place) is None:
            r[f"{prefix}place_label"] = ""
            continue
        count = shared.get(r[place], 0) if r.get(tied) else 0
        r[f"{prefix}place_label"] = (
            f"{r[place]}-{r[place] + count - 1}" if count > 1 else str(r[place])
        )


# --- the tournament page --------------------------------------------------------------------


@dataclass
class SectionLink:
    section: Section
    lines: tuple[str, ...]  # ("NS", "EW") in a Mitchell, ("",) otherwise


@dataclass
class PoolLinks:
    pool: str
    sections: list[SectionLink]
    boards: list[int]
    ranked_together: bool


@dataclass
class SessionOverview:
    session: Session
    pools: list[PoolLinks] = field(default_factory=list)
    hands: bool = False  # a board anybody may see has its deal: the session's hands file


def correction_period(tournament: Tournament, now=None) -> dict:
    """Law 79C: when the period ends, and whether it is still running."""
    ends = tournament.correction_period_ends
    now = now or timezone.now()
    return {"ends": ends, "running": ends is not None and now <= ends}


def tournament_overview(tournament: Tournament) -> list[SessionOverview]:
    """Sessions, their pools and sections (with lines) and board numbers, for the links."""
    sessions = list(tournament.sessions.annotate(**newest_changes()).order_by("number"))
    refresh_annotated(sessions)
    sections = list(
        Section.objects.filter(session__tournament=tournament).order_by(
            "session__number", "pool", "letter"
        )
    )
    boards = defaultdict(list)
    dealt: dict[int, set[tuple[str, int]]] = defaultdict(set)
    for session_id, pool, number, deal in (
        Board.objects.filter(session__tournament=tournament)
        .order_by("number")
        .values_list("session", "pool", "number", "deal")
    ):
        boards[(session_id, pool)].append(number)
        if deal:
            dealt[session_id].add((pool, number))
    out = []
    for session in sessions:
        pools: dict[str, list[SectionLink]] = defaultdict(list)
        for s in sections:
            if s.session_id == session.pk and s.movement:
                lines = ("NS", "EW") if plan.is_directional(s.movement) else ("",)
                pools[s.pool].append(SectionLink(s, lines))
        out.append(
            SessionOverview(
                session,
                [
                    PoolLinks(pool, links, boards[(session.pk, pool)], len(links) > 1)
                    for pool, links in sorted(pools.items())
                ],
                _hands_shown(session, dealt[session.pk]),
            )
        )
    return out


def _hands_shown(session: Session, dealt: set[tuple[str, int]]) -> bool:
    """Whether a board of ``session`` with its deal shows to anybody: the session's hands file
    holds something (``board_visibility``; three queries for a session being played)."""
    if not dealt:
        return False
    if board_visibility.session_closed(session):
        return True
    return bool(dealt & board_visibility.boards_complete(session))


# --- rankings -------------------------------------------------------------------------------

RANKING_FIELDS = (
    "entry_id",
    "number",
    "names",
    "place",
    "tied",
    "points",
    "maximum",
    "percentage",
    "boards",
    "direction",
    "section__letter",
    "decided_by",
    "handicap",
    "handicap_percentage",
    "handicap_place",
    "handicap_tied",
)


@dataclass
class RankingGroup:
    direction: str  # "NS", "EW" or "" (one winner)
    rows: list[dict]


def _grouped(queryset) -> list[RankingGroup]:
    groups: dict[str, list[dict]] = {}
    for row in queryset.values(*RANKING_FIELDS).order_by("direction", "place", "number"):
        groups.setdefault(row["direction"], []).append(row)
    order = {"": 0, "NS": 1, "EW": 2}
    out = []
    for direction in sorted(groups, key=order.get):
        place_labels(groups[direction])
        place_labels(groups[direction], "handicap_")
        out.append(RankingGroup(direction, groups[direction]))
    return out


def section_ranking(section: Section) -> list[RankingGroup]:
    """The section's stored ranking: NS and EW groups in a Mitchell, one group otherwise."""
    return _grouped(
        StoredRanking.objects.filter(
            session_id=section.session_id, section=section, scope=RankingScope.SECTION
        )
    )


def pool_ranking(session: Session, pool: str) -> list[RankingGroup]:
    """Every section of a pool ranked together (they played the same boards); each row
    says its section, as pair numbers repeat from one section to the next."""
    groups = _grouped(
        StoredRanking.objects.filter(session=session, scope=RankingScope.POOL, pool=pool)
    )
    letters = dict(
        Seating.objects.filter(session=session, section__pool=pool).values_list(
            "entry_id", "section__letter"
        )
    )
    for group in groups:
        for row in group.rows:
            row["section__letter"] = letters.get(row["entry_id"], "")
    return groups


def event_ranking(tournament: Tournament) -> list[RankingGroup]:
    """Totals over all the sessions of a multi-session tournament."""
    return _grouped(StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.EVENT))


# --- players --------------------------------------------------------------------------------


def headline_rankings(entry_ids) -> dict[int, dict]:
    """Each entry's ranking line that counts for the event: all sessions, else all sections
    on the same boards, else its section."""
    return best_lines(
        StoredRanking.objects.filter(entry_id__in=entry_ids).values(
            "entry_id", "scope", "place", "tied", "percentage", "points", "session__number"
        )
    )


def best_lines(rows) -> dict[int, dict]:
    """Each entry's headline line among ranking ``rows`` (dicts with ``entry_id`` and
    ``scope``), as ``headline_rankings`` chooses it."""
    best: dict[int, dict] = {}
    for row in rows:
        have = best.get(row["entry_id"])
        if have is None or HEADLINE_ORDER[row["scope"]] < HEADLINE_ORDER[have["scope"]]:
            best[row["entry_id"]] = row
    return best

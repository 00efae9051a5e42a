"""What the public results pages read: visible tournaments, stored rankings, scorecards,
travellers, hand records and player histories.

Everything here reads the stored classification (``StoredRanking`` / ``StoredMark``) in a
fixed number of queries whatever the field size; the only writes are re-classifications of
sessions whose rankings are stale (a result changed since they were stored), so a page never
shows rankings older than the results. Who may see a tournament is decided here too:
published (provisional or final) results, to everybody when the tournament's results are
public and to logged-in club users otherwise; directors also see events being played. Which
boards of a session being played show their deal, traveller and other tables' scores is
``board_visibility``'s rule; ``traveller`` and ``scorecard`` take its answer.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Exists, Max, OuterRef, QuerySet
from django.utils import timezone

from clubsite.models import Member
from clubsite.permissions import Role, has_role

from ..models import (
    Board,
    EntryPlayer,
    Penalty,
    RankingScope,
    Result,
    ResultStatus,
    ScoringMethod,
    Seating,
    Section,
    Session,
    SessionStatus,
    StoredMark,
    StoredMatch,
    StoredRanking,
    Tournament,
    TournamentStatus,
)
from ..notation import (  # noqa: F401 - the pages' helpers, re-exported for their callers
    Call,
    contract_call,
    double_dummy_rows,
    lead_card,
    par_text,
    parse_deal,
    strain_headers,
    trick_result,
)
from . import plan
from .adjustments import describe
from .board_visibility import BoardVisibility
from .classification import classify_session, request_classification

PUBLISHED = (TournamentStatus.PROVISIONAL, TournamentStatus.FINAL)
IMP_SCORED = (ScoringMethod.CROSS_IMPS, ScoringMethod.BUTLER, ScoringMethod.IMPS)
# Law editions the citations link to, by the visitor's language.
LAW_EDITIONS = {"pt": "pt-1997"}
DEFAULT_LAW_EDITION = "es-2017"


# --- who sees what --------------------------------------------------------------------------


def visible_tournaments(user) -> QuerySet:
    """Tournaments whose results ``user`` may see, newest first, flagged ``in_progress``."""
    statuses = list(PUBLISHED)
    if has_role(user, Role.DIRECTOR):
        statuses.append(TournamentStatus.RUNNING)
    queryset = Tournament.objects.filter(status__in=statuses)
    if user is None or not user.is_authenticated:
        queryset = queryset.filter(public_results=True)
    running = Session.objects.filter(tournament=OuterRef("pk"), status=SessionStatus.RUNNING)
    return queryset.annotate(in_progress=Exists(running)).order_by("-date", "name")


def visible_tournament(user, slug: str) -> Tournament | None:
    return visible_tournaments(user).filter(slug=slug).first()


def visible_session(user, slug: str, number: int) -> Session | None:
    """The session (with its tournament, flagged ``in_progress``) if ``user`` may see that
    tournament's results; one query, as every live page starts here."""
    running = Session.objects.filter(tournament=OuterRef("tournament"),
                                     status=SessionStatus.RUNNING)
    session = next(iter(
        Session.objects.select_related("tournament")
        .filter(tournament__in=visible_tournaments(user).filter(slug=slug).values("pk"),
                number=number)
        .annotate(tournament_in_progress=Exists(running)).order_by()[:1]), None)
    if session is not None:
        session.tournament.in_progress = session.tournament_in_progress
    return session


# --- stale rankings -------------------------------------------------------------------------


def refresh(sessions) -> list[Session]:
    """Bring stale sessions up to date the way ``classification.follow_live`` does: one
    never classified is classified now, the others are requested from the worker. Returns
    the sessions classified in this call.

    Same rule as ``classification.is_stale``, checked for many sessions in two queries.
    """
    sessions = [s for s in sessions]
    if not sessions:
        return []
    ids = [s.pk for s in sessions]
    latest = defaultdict(lambda: None)
    for model, key in ((Result, "section__session"), (Penalty, "session")):
        rows = (model.objects.filter(**{f"{key}__in": ids}).values(key)
                .annotate(m=Max("modified_at")).values_list(key, "m"))
        for session_id, stamp in rows:
            if latest[session_id] is None or stamp > latest[session_id]:
                latest[session_id] = stamp
    redone = []
    for s in sessions:
        stamp = latest[s.pk]
        stale = s.ranking_version == 0 or (stamp is not None and (
            s.classified_through is None or stamp > s.classified_through))
        if s.ranking_version == 0:
            classify_session(s)
            redone.append(s)
        elif stale and request_classification(s.pk):
            redone.append(s)
    return redone


# --- places ---------------------------------------------------------------------------------


def place_labels(rows: list[dict]) -> None:
    """Add ``place_label``: "3" alone, "3-4" for two entries sharing third place."""
    shared = Counter(r["place"] for r in rows if r.get("tied"))
    for r in rows:
        count = shared.get(r["place"], 0) if r.get("tied") else 0
        r["place_label"] = (f"{r['place']}-{r['place'] + count - 1}" if count > 1
                            else str(r["place"]))


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


def correction_period(tournament: Tournament, now=None) -> dict:
    """Law 79C: when the period ends, and whether it is still running."""
    ends = tournament.correction_period_ends
    now = now or timezone.now()
    return {"ends": ends, "running": ends is not None and now <= ends}


def tournament_overview(tournament: Tournament) -> list[SessionOverview]:
    """Sessions, their pools and sections (with lines) and board numbers, for the links."""
    sessions = list(tournament.sessions.order_by("number"))
    refresh(sessions)
    sections = list(Section.objects.filter(session__tournament=tournament)
                    .order_by("session__number", "pool", "letter"))
    boards = defaultdict(list)
    for session_id, pool, number in (Board.objects.filter(session__tournament=tournament)
                                     .order_by("number").values_list("session", "pool", "number")):
        boards[(session_id, pool)].append(number)
    out = []
    for session in sessions:
        pools: dict[str, list[SectionLink]] = defaultdict(list)
        for s in sections:
            if s.session_id == session.pk and s.movement:
                lines = ("NS", "EW") if plan.is_directional(s.movement) else ("",)
                pools[s.pool].append(SectionLink(s, lines))
        out.append(SessionOverview(session, [
            PoolLinks(pool, links, boards[(session.pk, pool)], len(links) > 1)
            for pool, links in sorted(pools.items())]))
    return out


# --- rankings -------------------------------------------------------------------------------

RANKING_FIELDS = ("entry_id", "number", "names", "place", "tied", "points", "maximum",
                  "percentage", "boards", "direction", "section__letter", "decided_by")


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
        out.append(RankingGroup(direction, groups[direction]))
    return out


def section_ranking(section: Section) -> list[RankingGroup]:
    """The section's stored ranking: NS and EW groups in a Mitchell, one group otherwise."""
    return _grouped(StoredRanking.objects.filter(
        session_id=section.session_id, section=section, scope=RankingScope.SECTION))


def pool_ranking(session: Session, pool: str) -> list[RankingGroup]:
    """Every section of a pool ranked together (they played the same boards); each row
    says its section, as pair numbers repeat from one section to the next."""
    groups = _grouped(StoredRanking.objects.filter(session=session, scope=RankingScope.POOL,
                                                   pool=pool))
    letters = dict(Seating.objects.filter(session=session, section__pool=pool)
                   .values_list("entry_id", "section__letter"))
    for group in groups:
        for row in group.rows:
            row["section__letter"] = letters.get(row["entry_id"], "")
    return groups


def event_ranking(tournament: Tournament) -> list[RankingGroup]:
    """Totals over all the sessions of a multi-session tournament."""
    return _grouped(StoredRanking.objects.filter(tournament=tournament,
                                                 scope=RankingScope.EVENT))


# --- contracts, leads, results as the pages show them (``notation``) ------------------------


def law_link(law: str, language: str | None) -> dict | None:
    """The citation linked to the law reference when it resolves; plain text otherwise."""
    if not law:
        return None
    edition = LAW_EDITIONS.get((language or "")[:2], DEFAULT_LAW_EDITION)
    try:
        from laws.citations import cite

        citation = cite(edition, law)
    except Exception:  # noqa: BLE001 - the law app may be absent or empty: show plain text
        citation = None
    if citation is None:
        return {"text": law, "url": "", "title": ""}
    return {"text": law, "url": citation.url, "title": citation.title}


# --- scorecard ------------------------------------------------------------------------------


@dataclass
class Scorecard:
    session: Session
    section: Section | None
    seating: dict
    rows: list[dict]
    ranking: dict | None
    penalties: list[dict]
    marks_total: Decimal
    imps: bool
    individual: bool = False  # rows carry "partner" and "opponents" (seat dicts)
    vps: bool = False  # Butler / cross-IMP pairs ranked on VPs per match
    matches: list[dict] = field(default_factory=list)  # round, opponent, imps, boards, vps


def _seat_labels(session: Session) -> dict[int, dict]:
    return {s["entry_id"]: s for s in Seating.objects.filter(session=session).values(
        "entry_id", "number", "direction", "section_id", "section__letter",
        "entry__display_name", "entry__name")}


def _relay_round(section: Section | None, board: int, seat: dict) -> int | None:
    """The round a pair sat out ``board`` (no result row holds it)."""
    if section is None:
        return None
    directional = plan.is_directional(section.movement)
    for slot in plan.slots(section.movement):
        if board - section.board_offset not in slot.boards:
            continue
        sides = ((slot.ns, "NS"), (slot.ew, "EW"))
        if any(n == seat["number"] and (not directional or line == seat["direction"])
               for n, line in sides):
            return slot.round
    return None


HIDDEN_PLAY = {"contract": Call(""), "declarer": "", "lead": Call(""), "result": "",
               "ns_score": None, "own_score": None, "adjusted": "", "play_hidden": True}


def scorecard(session: Session, entry_id: int, visible: BoardVisibility | None = None,
              viewer_plays: bool = False) -> Scorecard | None:
    """A pair's every board in a session, with its totals (``None`` if it did not play).

    A board ``visible`` does not show yet (``board_visibility``: a table has still to play
    it) is flagged ``in_play``: its mark, computed against the other tables, is left out, and
    so are the contract and score unless the viewer is one of the pair (``viewer_plays``), who
    may see their own result. The totals are the published ranking's and stay.
    """
    seats = _seat_labels(session)
    seat = seats.get(entry_id)
    if seat is None:
        return None
    section = Section.objects.filter(pk=seat["section_id"]).first()
    marks = (StoredMark.objects.filter(session=session, entry_id=entry_id)
             .select_related("result").order_by("board_number"))
    imps = session.tournament.scoring_method in IMP_SCORED
    rows, total = [], Decimal(0)
    for m in marks:
        r = m.result
        opp = seats.get(m.opponent_id)
        row = {"board": m.board_number, "direction": m.direction, "mark": m.mark,
               "percentage": m.percentage, "kind": m.kind, "opponent": opp,
               "opponent_id": m.opponent_id, "round": r.round if r else None,
               "sitout": r is None and m.opponent_id is None}
        if r is not None and r.south_id is not None:  # individual: who sat with whom
            side = (r.ns_id, r.south_id) if m.direction == "NS" else (r.ew_id, r.west_id)
            other = (r.ew_id, r.west_id) if m.direction == "NS" else (r.ns_id, r.south_id)
            row["partner"] = seats.get(side[1] if side[0] == entry_id else side[0])
            row["opponents"] = [seats.get(e) for e in other]
        if r is not None:
            own = r.ns_score if m.direction == "NS" else (
                -r.ns_score if r.ns_score is not None else None)
            row.update(contract=contract_call(r.contract), declarer=r.declarer,
                       lead=lead_card(r.lead), result=trick_result(r.contract, r.tricks),
                       ns_score=r.ns_score, own_score=own,
                       adjusted=describe(r.adjustment) if r.adjustment else "")
        else:
            row["round"] = _relay_round(section, m.board_number, seat)
        total += m.mark
        if visible is not None and not visible.shows(section.pool if section else "",
                                                     m.board_number):
            row.update(in_play=True, mark=None, percentage=None)
            if not viewer_plays and r is not None:
                row.update(HIDDEN_PLAY)
        rows.append(row)
    ranking = (StoredRanking.objects.filter(session=session, entry_id=entry_id,
                                            scope=RankingScope.SECTION)
               .values(*RANKING_FIELDS).first())
    penalties = list(Penalty.objects.filter(session=session, entry_id=entry_id)
                     .values("fraction_of_top", "board_number", "law", "reason"))
    individual = section is not None and plan.is_individual(section.movement)
    vps = session.tournament.converts_matches_to_vps
    matches = [{"round": m["round"], "opponent": seats.get(m["opponent_id"]),
                "opponent_id": m["opponent_id"], "imps": m["imps"], "boards": m["boards"],
                "vps": m["vps"]}
               for m in StoredMatch.objects.filter(session=session, entry_id=entry_id)
               .order_by("round").values("round", "opponent_id", "imps", "boards", "vps")
               ] if vps else []
    return Scorecard(session, section, seat, rows, ranking, penalties, total, imps, individual,
                     vps, matches)


# --- traveller, frequencies, hand record ----------------------------------------------------


@dataclass
class Traveller:
    board: Board
    rows: list[dict]
    frequencies: list[dict]
    imps: bool
    hand: dict | None
    in_play: bool = False  # hidden: some table has still to play it (``board_visibility``)


def traveller(session: Session, pool: str, number: int, language: str | None = None, *,
              shown: bool = True) -> Traveller | None:
    """Every result of a board in its pool, with marks, adjusted scores and the hand.

    With ``shown`` false (``board_visibility`` says the viewer may not see it yet) only the
    board itself, flagged ``in_play``: no results, frequencies or hand record.
    """
    board = Board.objects.filter(session=session, pool=pool, number=number).first()
    if board is None:
        return None
    if not shown:
        return Traveller(board, [], [], session.tournament.scoring_method in IMP_SCORED, None,
                         in_play=True)
    seats = _seat_labels(session)
    results = list(Result.objects.filter(board=board, status=ResultStatus.OK)
                   .select_related("section").order_by("section__letter", "round", "table"))
    marks = {(m["result_id"], m["direction"]): m for m in StoredMark.objects.filter(
        session=session, board_number=number, section__pool=pool, result__isnull=False
    ).values("result_id", "direction", "mark", "percentage")}
    rows = []
    for r in results:
        ns_mark, ew_mark = marks.get((r.pk, "NS")), marks.get((r.pk, "EW"))
        rows.append({
            "section": r.section.letter, "round": r.round, "table": r.table,
            "ns": seats.get(r.ns_id), "ew": seats.get(r.ew_id), "ns_id": r.ns_id,
            "ew_id": r.ew_id, "south": seats.get(r.south_id), "west": seats.get(r.west_id),
            "south_id": r.south_id, "west_id": r.west_id,
            "players": {r.ns_id, r.ew_id, r.south_id, r.west_id} - {None}, "contract": contract_call(r.contract), "declarer": r.declarer,
            "lead": lead_card(r.lead), "result": trick_result(r.contract, r.tricks),
            "ns_score": r.ns_score,
            "ns_plus": r.ns_score if r.ns_score is not None and r.ns_score > 0 else None,
            "ew_plus": -r.ns_score if r.ns_score is not None and r.ns_score < 0 else None,
            "ns_mark": ns_mark["mark"] if ns_mark else None,
            "ew_mark": ew_mark["mark"] if ew_mark else None,
            "ns_percentage": ns_mark["percentage"] if ns_mark else None,
            "ew_percentage": ew_mark["percentage"] if ew_mark else None,
            "adjusted": describe(r.adjustment) if r.adjustment else "",
            "fouled": bool(r.adjustment and r.adjustment.get("kind") == "fouled"),
            "reason": r.reason, "law": law_link(r.law, language) if r.adjustment else None,
        })
    rows.sort(key=lambda x: (x["adjusted"] != "" and not x["fouled"],
                             -(x["ns_score"] if x["ns_score"] is not None else -10**6)))
    return Traveller(board, rows, frequencies(rows), session.tournament.scoring_method
                     in IMP_SCORED, hand_record(board))


def frequencies(rows: list[dict]) -> list[dict]:
    """Score → how many tables → NS and EW marks (played results only, best NS first)."""
    table: dict[int, dict] = {}
    for row in rows:
        if row["ns_score"] is None or (row["adjusted"] and not row["fouled"]):
            continue
        entry = table.setdefault(row["ns_score"], {"score": row["ns_score"], "count": 0,
                                                   "ns_mark": row["ns_mark"],
                                                   "ew_mark": row["ew_mark"]})
        entry["count"] += 1
    return [table[s] for s in sorted(table, reverse=True)]


def hand_record(board: Board) -> dict | None:
    """The four hands from the PBN deal, plus the double-dummy table and par when known.

    ``double_dummy`` is read as ``{"N": {"NT": 9, "S": 10, …}, "E": …}`` (declarer, strain,
    tricks) and ``par`` as ``{"score": 420, "contracts": ["4SN="]}`` (``services.boards``).
    """
    hands = parse_deal(board.deal)
    if hands is None:
        return None
    return {"hands": hands, "double_dummy": double_dummy_rows(board.double_dummy),
            "par": par_text(board.par), "dealer": board.dealer,
            "vulnerability": board.get_vulnerability_display()}




# --- players --------------------------------------------------------------------------------

HEADLINE_ORDER = {RankingScope.EVENT: 0, RankingScope.POOL: 1, RankingScope.SECTION: 2}


def headline_rankings(entry_ids) -> dict[int, dict]:
    """Each entry's ranking line that counts for the event: all sessions, else all sections
    on the same boards, else its section."""
    best: dict[int, dict] = {}
    for row in StoredRanking.objects.filter(entry_id__in=entry_ids).values(
            "entry_id", "scope", "place", "tied", "percentage", "points", "session__number"):
        have = best.get(row["entry_id"])
        if have is None or HEADLINE_ORDER[row["scope"]] < HEADLINE_ORDER[have["scope"]]:
            best[row["entry_id"]] = row
    return best


@dataclass
class PlayerHistory:
    member: Member
    rows: list[dict]
    average: Decimal | None
    partners: list[dict]


def player_history(member: Member, user) -> PlayerHistory:
    """The member's tournaments that ``user`` may see: partner, percentage, place.

    Events still being played are listed (flagged) but left out of the averages: their
    percentage covers only the rounds played so far.
    """
    tournaments = {t.pk: t for t in visible_tournaments(user).filter(
        entries__entry_players__member=member).distinct()}
    seats = sorted(EntryPlayer.objects.filter(member=member, entry__tournament__in=tournaments)
                   .select_related("entry"),
                   key=lambda s: (tournaments[s.entry.tournament_id].date, s.entry_id),
                   reverse=True)
    entry_ids = [s.entry_id for s in seats]
    refresh(Session.objects.filter(tournament__in=tournaments))
    ranking = headline_rankings(entry_ids)
    partners_of: dict[int, list[Member]] = defaultdict(list)
    for ep in (EntryPlayer.objects.filter(entry_id__in=entry_ids).exclude(member=member)
               .select_related("member").order_by("seat")):
        partners_of[ep.entry_id].append(ep.member)
    sessions: dict[int, int] = {}
    for entry_id, number in Seating.objects.filter(entry_id__in=entry_ids).values_list(
            "entry_id", "session__number"):
        sessions[entry_id] = min(number, sessions.get(entry_id, number))
    rows, percentages = [], []
    stats: dict[int, dict] = {}
    for s in seats:
        tournament = tournaments[s.entry.tournament_id]
        line = ranking.get(s.entry_id)
        pct = line["percentage"] if line else None
        counts = pct is not None and not tournament.in_progress
        if counts:
            percentages.append(pct)
        rows.append({"tournament": tournament, "entry_id": s.entry_id,
                     "partners": partners_of[s.entry_id], "substitute": s.substitute,
                     "place": line["place"] if line else None,
                     "place_label": (f"{line['place']}=" if line["tied"] else str(line["place"]))
                     if line else "", "percentage": pct,
                     "points": line["points"] if line else None,
                     "session": sessions.get(s.entry_id)})
        for p in partners_of[s.entry_id]:
            stat = stats.setdefault(p.pk, {"member": p, "count": 0, "percentages": []})
            stat["count"] += 1
            if counts:
                stat["percentages"].append(pct)
    partners = sorted(stats.values(), key=lambda x: (-x["count"], x["member"].full_name))
    for p in partners:
        p["average"] = _mean(p.pop("percentages"))
    return PlayerHistory(member, rows, _mean(percentages), partners)


def _mean(values: list[Decimal]) -> Decimal | None:
    if not values:
        return None
    return (sum(values) / len(values)).quantize(Decimal("0.01"))


def member_for(user) -> Member | None:
    if user is None or not user.is_authenticated:
        return None
    return Member.objects.filter(user=user).first()


"""A pair's scorecard and a board's traveller as the results pages show them (marks, scores,
adjustments with their law linked), read from the stored classification; which boards of a
session in play show is ``board_visibility``'s answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Exists, FilteredRelation, Q, Subquery

from clubsite.models import Member
from tournaments.models import (
    Board,
    Penalty,
    RankingScope,
    Result,
    ResultStatus,
    Seating,
    Section,
    Session,
    StoredMark,
    StoredMatch,
    StoredRanking,
)
from tournaments.services.boards.board_words import (
    Call,
    contract_call,
    hand_record,
    lead_card,
    trick_result,
)
from tournaments.services.results.board_visibility import BoardVisibility
from tournaments.services.results.pages import RANKING_FIELDS
from tournaments.services.running.adjustments import describe, replaced
from tournaments.services.setup import plan

# Law editions the citations link to, by the visitor's language.
LAW_EDITIONS = {"pt": "pt-1997"}


DEFAULT_LAW_EDITION = "es-2017"


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
    players: list[Member] = field(default_factory=list)  # the pair's, in seat order
    # the boards the pair played, by number, read with their results (the analysis reads
    # their deal, par and double dummy: ``services.results.analysis``)
    boards: dict[int, Board] = field(default_factory=dict)


SEAT_FIELDS = (
    "entry_id",
    "number",
    "direction",
    "section_id",
    "section__letter",
    "entry__display_name",
    "entry__name",
)
PLAYER_FIELDS = ("id", "club_id", "first_name", "last_name")


def _seat_labels(session: Session) -> dict[int, dict]:
    return {s["entry_id"]: s for s in Seating.objects.filter(session=session).values(*SEAT_FIELDS)}


def _seats_and_players(session: Session, entry_id: int) -> tuple[dict[int, dict], list[Member]]:
    """``_seat_labels`` and, in the same query, the members of ``entry_id`` in seat order:
    its seating's row is joined to its players (every other entry's row to none), so a
    pair's two rows, an individual's one. The members are the club's own (as its manager
    reads them), loaded with their names only (``Member.from_db``, as ``only()`` would)."""
    rows = (
        Seating.objects.filter(session=session)
        .annotate(
            own=FilteredRelation(
                "entry__entry_players", condition=Q(entry__entry_players__entry_id=entry_id)
            )
        )
        .values(*SEAT_FIELDS, "own__seat", *(f"own__member__{f}" for f in PLAYER_FIELDS))
    )
    seats: dict[int, dict] = {}
    seated: dict[tuple[int, int], Member] = {}
    for row in rows:
        seats.setdefault(row["entry_id"], {f: row[f] for f in SEAT_FIELDS})
        values = [row[f"own__member__{f}"] for f in PLAYER_FIELDS]
        if values[0] is not None and values[1] == session.tournament.club_id:
            seated.setdefault(
                (row["own__seat"], values[0]), Member.from_db(rows.db, PLAYER_FIELDS, values)
            )
    players = [seated[key] for key in sorted(seated, key=lambda key: key[0])]
    return seats, players


def _relay_round(section: Section | None, board: int, seat: dict) -> int | None:
    """The round a pair sat out ``board`` (no result row holds it)."""
    if section is None:
        return None
    directional = plan.is_directional(section.movement)
    for slot in plan.slots(section.movement):
        if board - section.board_offset not in slot.boards:
            continue
        sides = ((slot.ns, "NS"), (slot.ew, "EW"))
        if any(
            n == seat["number"] and (not directional or line == seat["direction"])
            for n, line in sides
        ):
            return slot.round
    return None


HIDDEN_PLAY = {
    "contract": Call(""),
    "declarer": "",
    "lead": Call(""),
    "result": "",
    "ns_score": None,
    "own_score": None,
    "adjusted": "",
    "replaced": None,
    "play_hidden": True,
}


def scorecard(
    session: Session,
    entry_id: int,
    visible: BoardVisibility | None = None,
    viewer: Member | None = None,
) -> Scorecard | None:
    """A pair's every board in a session, with its totals and its players (``None`` if it
    did not play).

    A board ``visible`` does not show yet (``board_visibility``: a table has still to play
    it) is flagged ``in_play``: its mark, computed against the other tables, is left out, and
    so are the contract and score unless the viewer (``viewer``, the member of the logged-in
    user) is one of the pair, who may see their own result. The totals are the published
    ranking's and stay.
    """
    seats, players = _seats_and_players(session, entry_id)
    seat = seats.get(entry_id)
    if seat is None:
        return None
    viewer_plays = viewer is not None and viewer in players
    # the ranking line with its section (one query); the penalties only when there are some
    penalised = Penalty.objects.filter(session=session, entry_id=entry_id)
    ranked = (
        StoredRanking.objects.filter(session=session, entry_id=entry_id, scope=RankingScope.SECTION)
        .select_related("section")
        .annotate(penalised=Exists(penalised))
        .first()
    )
    if ranked is not None:
        section = ranked.section
        ranking: dict | None = {
            f: section.letter if f == "section__letter" else getattr(ranked, f)
            for f in RANKING_FIELDS
        }
    else:
        section, ranking = Section.objects.filter(pk=seat["section_id"]).first(), None
    penalties = (
        list(penalised.values("fraction_of_top", "board_number", "law", "reason"))
        if ranked is None or ranked.penalised
        else []
    )
    marks = (
        StoredMark.objects.filter(session=session, entry_id=entry_id)
        .select_related("result__board")
        .order_by("board_number")
    )
    imps = session.tournament.method.ranks_by_imps
    rows, total, boards = [], Decimal(0), {}
    for m in marks:
        r = m.result
        opp = seats.get(m.opponent_id)
        row = {
            "board": m.board_number,
            "direction": m.direction,
            "mark": m.mark,
            "percentage": m.percentage,
            "kind": m.kind,
            "opponent": opp,
            "opponent_id": m.opponent_id,
            "round": r.round if r else None,
            "sitout": r is None and m.opponent_id is None,
            "result_id": m.result_id,
        }
        if r is not None and r.south_id is not None:  # individual: who sat with whom
            side = (r.ns_id, r.south_id) if m.direction == "NS" else (r.ew_id, r.west_id)
            other = (r.ew_id, r.west_id) if m.direction == "NS" else (r.ns_id, r.south_id)
            row["partner"] = seats.get(side[1] if side[0] == entry_id else side[0])
            row["opponents"] = [seats.get(e) for e in other]
        if r is not None:
            boards[m.board_number] = r.board
            # An adjusted score stands alone: the table's score it replaced is shown apart.
            gone = replaced(r.ns_score, r.adjustment)
            score = None if gone else r.ns_score
            own = score if m.direction == "NS" else (-score if score is not None else None)
            row.update(
                contract=contract_call(r.contract),
                declarer=r.declarer,
                lead=lead_card(r.lead),
                result=trick_result(r.contract, r.tricks),
                ns_score=score,
                own_score=own,
                replaced=gone,
                adjusted=describe(r.adjustment) if r.adjustment else "",
            )
        else:
            row["round"] = _relay_round(section, m.board_number, seat)
        total += m.mark
        if visible is not None and not visible.shows(
            section.pool if section else "", m.board_number
        ):
            row.update(in_play=True, mark=None, percentage=None)
            if not viewer_plays and r is not None:
                row.update(HIDDEN_PLAY)
        rows.append(row)
    individual = section is not None and plan.is_individual(section.movement)
    vps = session.tournament.converts_matches_to_vps
    matches = (
        [
            {
                "round": m["round"],
                "opponent": seats.get(m["opponent_id"]),
                "opponent_id": m["opponent_id"],
                "imps": m["imps"],
                "boards": m["boards"],
                "vps": m["vps"],
            }
            for m in StoredMatch.objects.filter(session=session, entry_id=entry_id)
            .order_by("round")
            .values("round", "opponent_id", "imps", "boards", "vps")
        ]
        if vps
        else []
    )
    return Scorecard(
        session,
        section,
        seat,
        rows,
        ranking,
        penalties,
        total,
        imps,
        individual,
        vps,
        matches,
        players,
        boards,
    )


@dataclass
class Traveller:
    board: Board
    rows: list[dict]
    frequencies: list[dict]
    imps: bool
    hand: dict | None
    in_play: bool = False  # hidden: some table has still to play it (``board_visibility``)
    held: bool = False  # some results' marks wait for rounds the ranking hides


def traveller(
    session: Session, pool: str, number: int, language: str | None = None, *, shown: bool = True
) -> Traveller | None:
    """Every result of a board in its pool, with marks, adjusted scores and the hand; the
    board carries ``previous_number`` and ``next_number`` (the pool's boards around it).

    With ``shown`` false (``board_visibility`` says the viewer may not see it yet) only the
    board itself, flagged ``in_play``: no results, frequencies or hand record.
    """
    boards = Board.objects.filter(session=session, pool=pool)
    board = (
        boards.filter(number=number)
        .annotate(  # the pool's boards before and after it, for the page's links
            previous_number=Subquery(
                boards.filter(number__lt=number).order_by("-number").values("number")[:1]
            ),
            next_number=Subquery(
                boards.filter(number__gt=number).order_by("number").values("number")[:1]
            ),
        )
        .first()
    )
    if board is None:
        return None
    if not shown:
        return Traveller(board, [], [], session.tournament.method.ranks_by_imps, None, in_play=True)
    seats = _seat_labels(session)
    results = list(
        Result.objects.filter(board=board, status=ResultStatus.OK)
        .select_related("section")
        .defer("section__movement")  # its letter only: each row would parse the movement again
        .order_by("section__letter", "round", "table")
    )
    marks = {
        (m["result_id"], m["direction"]): m
        for m in StoredMark.objects.filter(
            session=session, board_number=number, section__pool=pool, result__isnull=False
        ).values("result_id", "direction", "mark", "percentage")
    }
    rows = []
    for r in results:
        ns_mark, ew_mark = marks.get((r.pk, "NS")), marks.get((r.pk, "EW"))
        # An adjusted score stands alone: the table's score it replaced is shown apart.
        gone = replaced(r.ns_score, r.adjustment)
        score = None if gone else r.ns_score
        rows.append(
            {
                "section": r.section.letter,
                "round": r.round,
                "table": r.table,
                "ns": seats.get(r.ns_id),
                "ew": seats.get(r.ew_id),
                "ns_id": r.ns_id,
                "ew_id": r.ew_id,
                "south": seats.get(r.south_id),
                "west": seats.get(r.west_id),
                "south_id": r.south_id,
                "west_id": r.west_id,
                "players": {r.ns_id, r.ew_id, r.south_id, r.west_id} - {None},
                "contract": contract_call(r.contract),
                "declarer": r.declarer,
                "lead": lead_card(r.lead),
                "result": trick_result(r.contract, r.tricks),
                "ns_score": score,
                "replaced": gone,
                "ns_plus": score if score is not None and score > 0 else None,
                "ew_plus": -score if score is not None and score < 0 else None,
                "ns_mark": ns_mark["mark"] if ns_mark else None,
                "ew_mark": ew_mark["mark"] if ew_mark else None,
                "ns_percentage": ns_mark["percentage"] if ns_mark else None,
                "ew_percentage": ew_mark["percentage"] if ew_mark else None,
                "adjusted": describe(r.adjustment) if r.adjustment else "",
                "fouled": bool(r.adjustment and r.adjustment.get("kind") == "fouled"),
                "reason": r.reason,
                "law": law_link(r.law, language) if r.adjustment else None,
            }
        )
    rows.sort(
        key=lambda x: (
            x["adjusted"] != "" and not x["fouled"],
            -(x["ns_score"] if x["ns_score"] is not None else -(10**6)),
        )
    )
    return Traveller(
        board, rows, frequencies(rows), session.tournament.method.ranks_by_imps, hand_record(board)
    )


def frequencies(rows: list[dict]) -> list[dict]:
    """Score → how many tables → NS and EW marks (played results only, best NS first); a
    score's marks are those of a row that has them (a row ``held`` during play has none)."""
    table: dict[int, dict] = {}
    for row in rows:
        if row["ns_score"] is None or (row["adjusted"] and not row["fouled"]):
            continue
        entry = table.setdefault(
            row["ns_score"],
            {"score": row["ns_score"], "count": 0, "ns_mark": None, "ew_mark": None},
        )
        entry["count"] += 1
        if entry["ns_mark"] is None and entry["ew_mark"] is None:
            entry["ns_mark"], entry["ew_mark"] = row["ns_mark"], row["ew_mark"]
    return [table[s] for s in sorted(table, reverse=True)]

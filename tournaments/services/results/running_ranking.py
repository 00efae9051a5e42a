"""The running ranking: a session's ranking while it is played, the last rounds hidden when
the director says so. The one service behind the room screen and the players' pages.

Clubs keep the end exciting by hiding the last rounds: with ``RoomScreen.hidden_rounds`` = N
and the room playing round r (``room_round``), the ranking counts only the results of rounds
1 to r - N, classified exactly as the session would be had only those results been entered
("ranking after round k"): a board's marks compare the tables that had played it by then.
With nothing hidden it is the stored live ranking (``classification``), as before. Once the
session is finished nothing is hidden. A teams event hides no rounds (``hides_rounds``):
each team knows its own match score as soon as it compares with its team-mates, a Swiss
draws each round from the standings (the draw would tell what they hid) and a knockout's
next stage names who went through; its standings count each match as it is scored.

What the ranking hides, the pages about boards hide too: a scorecard (``hold_scorecard``)
and a board's traveller (``hold_traveller``) show the marks of the ranking after round k for
the results of rounds 1 to k, and none for the later rounds' results; their scores stay, as
the table device shows them.

Who sees it during play is ``shown_to``: the director always; everyone else only where the
tournament's ``live_ranking`` is on (the director switches it). The room screen shows it by
its own secret link. Computing a ranking after round k scores the session from its results
(no writes); it is kept in the cache under the stored ranking's version, so a hundred
phones and the screen polling cost one computation per new version.
"""

from __future__ import annotations

from collections import defaultdict
from contextlib import suppress
from dataclasses import dataclass, field
from decimal import Decimal

from django.core.cache import cache

from clubsite.accounts.permissions import Role, has_role
from tournaments.models import (
    EventType,
    RankingScope,
    RoomScreen,
    Seating,
    Section,
    Session,
    SessionStatus,
    StoredRanking,
)
from tournaments.services.classification.rows import (
    MARK_VALUES,
    RANKING_KEY,
    RANKING_VALUES,
    pool_mark_rows,
    ranking_rows,
)
from tournaments.services.classification.session_data import load_session
from tournaments.services.classification.session_scores import score_data
from tournaments.services.results import scorecards
from tournaments.services.results.pages import RANKING_FIELDS, RankingGroup, place_labels
from tournaments.services.running.room_round import room_round

CACHE_SECONDS = 600
LINE_ORDER = {"": 0, "NS": 1, "EW": 2}


@dataclass
class RunningRanking:
    """A session's ranking as the room and the players' pages show it now."""

    session: Session
    hidden: int  # rounds the director hides (0: none)
    through: int | None  # counts rounds 1..through; None: every result (nothing hidden)
    rows: list[dict] = field(default_factory=list)  # RANKING_FIELDS + scope, section_id, pool
    marks: dict[tuple[int, int], tuple[Decimal, Decimal | None]] = field(default_factory=dict)

    @property
    def shown(self) -> bool:
        """Whether there is a ranking to show (hiding every round played shows none)."""
        return self.through is None or self.through > 0

    def groups(self, scope: str, *, section_id: int | None = None, pool: str = ""):
        """One ranking of it (a section's, or a pool's ranked together), line by line."""
        rows = [
            dict(r)
            for r in self.rows
            if r["scope"] == scope
            and (section_id is None or r["section_id"] == section_id)
            and (not pool or r["pool"] == pool)
        ]
        return _grouped(rows)

    def room_groups(self) -> list[tuple[str, RankingGroup]]:
        """What the room screen ranks: each pool ranked together (a section alone when it is
        the pool's only one), as ``(section letter or "", group)``."""
        out = []
        pools: dict[str, set[int]] = defaultdict(set)
        letters: dict[int, str] = {}
        for r in self.rows:
            if r["scope"] == RankingScope.SECTION:
                pools[r["pool"]].add(r["section_id"])
                letters[r["section_id"]] = r["section__letter"] or ""
        for pool in sorted(pools):
            if len(pools[pool]) > 1:
                for group in self.groups(RankingScope.POOL, pool=pool):
                    for row in group.rows:
                        row["show_section"] = True  # numbers repeat from section to section
                    out.append(("", group))
                continue
            (section_id,) = pools[pool]
            named = letters[section_id] if len(pools) > 1 else ""
            out += [(named, g) for g in self.groups(RankingScope.SECTION, section_id=section_id)]
        return out


def _grouped(rows: list[dict]) -> list[RankingGroup]:
    lines: dict[str, list[dict]] = {}
    for row in sorted(
        rows, key=lambda r: (LINE_ORDER.get(r["direction"], 3), r["place"], r["number"] or 0)
    ):
        lines.setdefault(row["direction"], []).append(row)
    out = []
    for direction, members in lines.items():
        place_labels(members)
        place_labels(members, "handicap_")
        out.append(RankingGroup(direction, members))
    return out


# --- who and what ---------------------------------------------------------------------------


def is_played(session: Session) -> bool:
    return session.status == SessionStatus.RUNNING


def shown_to(user, session: Session) -> bool:
    """Whether ``user`` may see ``session``'s ranking now: anyone once it is not being played;
    during play the director, and the others where the tournament lets players follow it."""
    if not is_played(session):
        return True
    return session.tournament.live_ranking or has_role(user, Role.DIRECTOR)


@dataclass(frozen=True)
class Visibility:
    """What one viewer sees of a session's ranking now (see ``visibility``)."""

    allowed: bool  # False: not during play (the tournament's ``live_ranking`` is off)
    hidden: int = 0
    through: int | None = None  # None: every result counts

    @property
    def shown(self) -> bool:
        return self.allowed and (self.through is None or self.through > 0)

    @property
    def key(self) -> str:
        """What it adds to a page's ETag and cache key."""
        return f"{int(self.allowed)}-{self.hidden}-{self.through}"


def visibility(user, session: Session, room: RoomScreen | None = None) -> Visibility:
    """``shown_to`` and ``hidden_through`` together, for a page about to show a ranking."""
    if not shown_to(user, session):
        return Visibility(False)
    hidden, through = hidden_through(session, room)
    return Visibility(True, hidden, through)


def hides_rounds(session: Session) -> bool:
    """Whether the director may hide rounds of this session's ranking (not a teams event's)."""
    return session.tournament.event_type != EventType.TEAMS


def hidden_through(session: Session, room: RoomScreen | None = None) -> tuple[int, int | None]:
    """The rounds hidden and the last round counted (None: every result counts)."""
    if not is_played(session) or not hides_rounds(session):
        return 0, None
    room = room if room is not None else RoomScreen.for_session(session)
    if room.hidden_rounds == 0:
        return 0, None
    current = room_round(session, room).round
    return room.hidden_rounds, max(current - room.hidden_rounds, 0)


def running_ranking(session: Session, room: RoomScreen | None = None) -> RunningRanking:
    """The session's ranking now, its hidden rounds left out (``hidden_through``)."""
    hidden, through = hidden_through(session, room)
    out = RunningRanking(session, hidden, through)
    if through is None:
        out.rows = _stored_rows(session)
    elif through > 0:
        out.rows, out.marks = _after_round_cached(session, through)
    return out


# --- the rows -------------------------------------------------------------------------------


def _letters(session: Session) -> dict[int, str]:
    return dict(Seating.objects.filter(session=session).values_list("entry_id", "section__letter"))


def _stored_rows(session: Session) -> list[dict]:
    rows = list(
        StoredRanking.objects.filter(session=session)
        .exclude(scope=RankingScope.EVENT)
        .values(*RANKING_FIELDS, "scope", "section_id", "pool")
    )
    if any(r["section__letter"] is None for r in rows):  # a pool's rows: each pair's section
        letters = _letters(session)
        for r in rows:
            r["section__letter"] = r["section__letter"] or letters.get(r["entry_id"], "")
    return rows


def _cache_key(session: Session, through: int) -> str:
    stamp = session.classified_through.timestamp() if session.classified_through else 0
    return f"clubsite:ranking-after:{session.pk}:{session.ranking_version}:{stamp}:{through}"


def _after_round_cached(session: Session, through: int):
    key = _cache_key(session, through)
    found = None
    with suppress(Exception):  # a cache that is down costs the computation
        found = cache.get(key)
    if found is None:
        found = ranking_after_round(session, through)
        with suppress(Exception):
            cache.set(key, found, CACHE_SECONDS)
    return found


def ranking_after_round(
    session: Session, through: int
) -> tuple[list[dict], dict[tuple[int, int], tuple[Decimal, Decimal | None]]]:
    """The session classified from the results of rounds 1..``through`` alone: its ranking
    rows and each entry's board marks ``(entry, board) → (mark, percentage)``. Writes
    nothing. Penalties count as they stand (a director's decision, not a result)."""
    data = load_session(session)
    data.results = [r for r in data.results if r["round"] <= through]
    pools = score_data(data)
    lines = ranking_rows(data, pools)
    letters = _letters(session)
    section_letters = dict(Section.objects.filter(session=session).values_list("id", "letter"))
    rows = []
    for key, values in lines.items():
        found = dict(zip(RANKING_KEY, key, strict=True)) | dict(
            zip(RANKING_VALUES, values, strict=True)
        )
        row = {name: found.get(name) for name in RANKING_FIELDS if "__" not in name}
        row["entry_id"] = found["entry"]
        row["section__letter"] = (
            section_letters.get(found["section"])
            if found["section"] is not None
            else letters.get(found["entry"])
        )
        row.update(scope=found["scope"], section_id=found["section"], pool=found["pool"])
        rows.append(row)
    mark, percentage = MARK_VALUES.index("mark"), MARK_VALUES.index("percentage")
    marks = {
        (entry, board): (values[mark], values[percentage])
        for (_section, board, entry, _d), values in pool_mark_rows(data, pools).items()
    }
    return rows, marks


# --- a pair's scorecard during play ---------------------------------------------------------


def hold_scorecard(card, seen: Visibility, session: Session) -> None:
    """Keep ``card`` (``scorecards.Scorecard``) to what ``seen`` allows during play: without
    the running ranking, no marks and no totals; with rounds hidden, the marks and totals of
    the ranking after round k (the later rounds' marks left out). The pair's own contracts
    and scores stay as ``board_visibility`` shows them."""
    if seen.allowed and seen.through is None:
        return
    ranking = running_ranking(session) if seen.allowed and seen.through else None
    marks = ranking.marks if ranking is not None else {}
    entry = card.seating["entry_id"]
    total = Decimal(0)
    for row in card.rows:
        counted = seen.allowed and (row.get("round") or 0) <= (seen.through or 0)
        mark, percentage = (
            marks.get((entry, row["board"]), (None, None)) if counted else (None, None)
        )
        if row.get("in_play"):
            mark = percentage = None
        row.update(mark=mark, percentage=percentage, held=not counted)
        total += mark or 0
    card.matches = []
    line = None
    if ranking is not None:
        line = next(
            (
                {name: r[name] for name in RANKING_FIELDS}
                for r in ranking.rows
                if r["scope"] == RankingScope.SECTION and r["entry_id"] == entry
            ),
            None,
        )
    card.ranking = line
    card.marks_total = total if ranking is not None else None


# --- a board's traveller during play --------------------------------------------------------


def hold_traveller(traveller, seen: Visibility, session: Session) -> None:
    """Keep ``traveller`` (``scorecards.Traveller``) to what ``seen`` allows during play, as
    ``hold_scorecard`` keeps a scorecard: with rounds hidden, a result of rounds 1..k carries
    its marks of the ranking after round k, a later one none (flagged ``held``); without the
    running ranking, no marks at all. The frequencies follow."""
    if (seen.allowed and seen.through is None) or traveller.in_play:
        return
    marks = running_ranking(session).marks if seen.allowed and seen.through else {}
    number = traveller.board.number
    for row in traveller.rows:
        counted = seen.allowed and row["round"] <= (seen.through or 0)
        ns = marks.get((row["ns_id"], number), (None, None)) if counted else (None, None)
        ew = marks.get((row["ew_id"], number), (None, None)) if counted else (None, None)
        row.update(
            ns_mark=ns[0],
            ns_percentage=ns[1],
            ew_mark=ew[0],
            ew_percentage=ew[1],
            held=not counted,
        )
    traveller.frequencies = scorecards.frequencies(traveller.rows)
    traveller.held = any(row["held"] for row in traveller.rows)

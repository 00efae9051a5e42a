"""The room screen: what a TV or projector in the playing room shows of a session, and the
director's settings for it.

The screen opens by the session's secret link (``RoomScreen.token``, made and renewed by the
director: ``make_link``) with no sign-in, and only reads. It shows the running ranking
(``running_ranking``: the director may hide the last rounds), the round being played and how
many of its tables have finished (``room_round``), the round clock (``room_clock``) and, as
the round ends, where everyone goes next (``movements.instructions``): a Mitchell's change in
one line, a Howell's pair by pair.

Which change is on the screen: the way into the round being played until one of its tables
has finished it (pairs may still be moving), then the way out of it; out of the first round
from the start; none after the last round. ``layout`` pages the ranking for a screen: 15 rows
a column, two columns a page; the screen turns the pages by itself.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import (
    EntryPlayer,
    RoomScreen,
    Seating,
    Session,
    SessionStatus,
    Tournament,
)
from tournaments.models.boards import new_table_token
from tournaments.movements import Movement
from tournaments.movements.instructions import LineSteps, Move, Place, round_change
from tournaments.services.classification.session_data import latest_change
from tournaments.services.errors import TournamentError
from tournaments.services.results.running_ranking import (
    RunningRanking,
    hides_rounds,
    running_ranking,
)
from tournaments.services.running.room_clock import OVER, Clock
from tournaments.services.running.room_round import RoomRound, room_round
from tournaments.services.setup import plan

ROWS_PER_COLUMN = 15
COLUMNS_PER_PAGE = 2
SEAT_CODES = {"north": "N", "south": "S", "east": "E", "west": "W"}


# --- the director's settings ----------------------------------------------------------------


@transaction.atomic
def make_link(session: Session) -> RoomScreen:
    """The session's screen link, made now; a link made before stops working."""
    room, made = RoomScreen.objects.get_or_create(session=session)
    if not made:
        room = RoomScreen.objects.select_for_update().get(pk=room.pk)
        room.token = new_table_token()
        room.save(update_fields=["token", "changed_at"])
    return room


@transaction.atomic
def set_hidden_rounds(session: Session, hidden: int) -> RoomScreen:
    """Hide the last ``hidden`` rounds played from the running ranking (0: hide none). A
    teams event hides none (``running_ranking.hides_rounds``)."""
    if hidden and not hides_rounds(session):
        raise TournamentError(
            _(
                "A teams event's standings count every match once it is scored: no rounds are hidden."
            ),
            "hidden_rounds",
        )
    rounds = max(
        (plan.round_count(s.movement) for s in session.sections.all() if s.movement), default=0
    )
    if not 0 <= hidden <= max(rounds, 0):
        raise TournamentError(
            _("Hide 0 to %(rounds)s rounds.") % {"rounds": rounds}, "hidden_rounds"
        )
    room, _made = RoomScreen.objects.get_or_create(session=session)
    room = RoomScreen.objects.select_for_update().get(pk=room.pk)
    room.hidden_rounds = hidden
    room.save(update_fields=["hidden_rounds", "changed_at"])
    return room


@transaction.atomic
def set_language(session: Session, language: str) -> RoomScreen:
    """Show the session's screen in ``language`` (one of the site's; "" for the club's). A TV
    already showing it follows on its next poll: its link names no language."""
    if language and language not in dict(settings.LANGUAGES):
        raise TournamentError(_("The site has no such language."), "language")
    room, _made = RoomScreen.objects.get_or_create(session=session)
    room = RoomScreen.objects.select_for_update().get(pk=room.pk)
    room.language = language
    room.save(update_fields=["language", "changed_at"])
    return room


def set_live_ranking(tournament: Tournament, on: bool) -> Tournament:
    """Let players follow the running ranking during play (or not)."""
    Tournament.objects.filter(pk=tournament.pk).update(live_ranking=on)
    tournament.live_ranking = on
    return tournament


def room_for_token(token: str) -> RoomScreen | None:
    """The screen a link opens (with its session and tournament); None for any other text."""
    if not token:
        return None
    return RoomScreen.objects.select_related("session__tournament").filter(token=token).first()


# --- what the screen shows ------------------------------------------------------------------


@dataclass(frozen=True)
class PairGo:
    """One pair (or player) of the list: its number, its line in a Mitchell, and where it
    plays now and next (None: sits out). Seats are codes the ``seat`` filter translates."""

    number: int
    line: str
    now: tuple[int, str] | None
    next: tuple[int, str] | None


@dataclass(frozen=True)
class BoardGo:
    first: int
    last: int
    now: tuple[int, ...]  # (): resting
    next: tuple[int, ...]  # (): to rest


@dataclass(frozen=True)
class StepLine:
    """One line of a Mitchell's change: who ("NS", "EW" or "boards") goes which way
    ("stay", "up" or "down") and how many tables."""

    who: str
    way: str
    tables: int


def step_lines(steps: LineSteps) -> list[StepLine]:
    out = []
    for who, step in (("NS", steps.ns), ("EW", steps.ew), ("boards", steps.boards)):
        if step is not None:
            way = "stay" if step == 0 else ("up" if step > 0 else "down")
            out.append(StepLine(who, way, abs(step)))
    return out


@dataclass
class SectionChange:
    letter: str  # "" when the session has one section
    steps: LineSteps | None
    pairs: list[PairGo]  # every pair when no one line says it (a Howell)
    sitting_out: list[PairGo]  # who sits out the next round
    boards: list[BoardGo]  # the sets ``steps`` does not describe (all in a Howell)
    individual: bool = False

    @property
    def lines(self) -> list[StepLine]:
        return step_lines(self.steps) if self.steps is not None else []


@dataclass(frozen=True)
class Column:
    letter: str  # the section, when the session ranks several apart
    direction: str  # "NS", "EW" or ""
    rows: tuple[dict, ...]
    first: bool  # the group's first column (else it continues one)


@dataclass
class Screen:
    room: RoomScreen
    session: Session
    round: RoomRound
    clock: Clock
    clock_state: str
    remaining: int | None  # seconds
    ranking: RunningRanking
    pages: list[list[Column]] = field(default_factory=list)
    change_from: int | None = None  # the instructions lead out of this round
    changes: list[SectionChange] = field(default_factory=list)

    @property
    def short_moves(self) -> bool:
        """Every section's change said in lines (a Mitchell): the ranking takes more room."""
        return all(change.steps is not None for change in self.changes)

    @property
    def playing(self) -> bool:
        return self.session.status == SessionStatus.RUNNING

    @property
    def finished(self) -> bool:
        return self.session.status == SessionStatus.FINISHED

    @property
    def clock_text(self) -> str:
        return clock_text(
            None if self.remaining is None else datetime.timedelta(seconds=self.remaining)
        )


def clock_text(left: datetime.timedelta | None) -> str:
    """The time left as a clock shows it ("12:05"); the screens count down from it."""
    seconds = max(int(left.total_seconds()), 0) if left is not None else 0
    return f"{seconds // 60}:{seconds % 60:02d}"


def _place(place: Place | None) -> tuple[int, str] | None:
    return None if place is None else (place.table, SEAT_CODES.get(place.seat, place.seat))


def _pair(move: Move, directional: bool) -> PairGo:
    number = plan.contestant_number(move.contestant) or 0
    line = _line_of(move.contestant, "") if directional else ""
    return PairGo(number, line, _place(move.now), _place(move.next))


def _line_of(contestant, line: str) -> str:
    """A Mitchell pair's line: its name's ("3EW", even in the NS seats of an arrow switch),
    else the seat's."""
    text = str(contestant)
    return text[-2:] if text[-2:] in ("NS", "EW") else line


def labelled(movement: dict) -> dict:
    """A Mitchell's stored dict with every pair named by number and line ("3NS", "3EW"): a
    card typed with plain numbers names NS 3 and EW 3 alike, and the core would take them
    for one pair."""

    def name(contestant, line: str):
        if contestant is None:
            return None
        return f"{plan.contestant_number(contestant)}{_line_of(contestant, line)}"

    rounds = []
    for rnd in movement.get("rounds", ()):
        tables = [
            {**t, "ns": name(t.get("ns"), "NS"), "ew": name(t.get("ew"), "EW")}
            for t in rnd.get("tables", ())
        ]
        sitout = [name(p, "EW") for p in rnd.get("sitout") or () if p is not None]
        rounds.append({**rnd, "tables": tables, "sitout": sitout})
    return {**movement, "rounds": rounds}


def _absent(section, movement: Movement, directional: bool) -> set:
    """The movement's contestants nobody holds (a phantom, an empty place)."""
    seats = set(
        Seating.objects.filter(section=section).values_list("number", "direction").order_by()
    )
    out = set()
    for contestant in movement.contestants():
        if isinstance(contestant, str) and not directional:
            continue  # an individual's players, a team's pairs: not seated by number
        line = _line_of(contestant, "") if directional else ""
        if (plan.contestant_number(contestant), line) not in seats:
            out.add(contestant)
    return out


def section_changes(session: Session, from_round: int) -> list[SectionChange]:
    """Each section's way from ``from_round`` to the next round."""
    sections = [s for s in session.sections.order_by("letter") if s.movement]
    out = []
    for section in sections:
        directional = plan.is_directional(section.movement)
        individual = plan.is_individual(section.movement)
        stored = labelled(section.movement) if directional else section.movement
        movement = Movement.from_dict(stored)
        absent = set() if individual else _absent(section, movement, directional)
        change = round_change(movement, from_round, absent)
        if change is None:
            continue
        pairs = sorted(
            (_pair(m, directional) for m in change.moves),
            key=lambda p: (p.line != "NS", p.line, p.number),
        )
        offset = section.board_offset
        boards = [
            BoardGo(b.boards[0] + offset, b.boards[-1] + offset, b.now, b.next)
            for b in (change.other_boards if change.steps is not None else change.boards)
            if b.now or b.next
        ]
        out.append(
            SectionChange(
                section.letter if len(sections) > 1 else "",
                change.steps,
                [] if change.steps is not None else pairs,
                [p for p in pairs if p.next is None],
                boards,
                individual=individual,
            )
        )
    return out


def layout(
    groups, rows_per_column: int = ROWS_PER_COLUMN, columns_per_page: int = COLUMNS_PER_PAGE
) -> list[list[Column]]:
    """The ranking's groups (``(letter, RankingGroup)``) cut into columns of at most
    ``rows_per_column`` rows, and those into pages of ``columns_per_page``."""
    columns = []
    for letter, group in groups:
        rows = group.rows
        for start in range(0, max(len(rows), 1), rows_per_column):
            chunk = tuple(rows[start : start + rows_per_column])
            if chunk:
                columns.append(Column(letter, group.direction, chunk, start == 0))
    return [
        columns[start : start + columns_per_page]
        for start in range(0, len(columns), columns_per_page)
    ]


PARTICLES = frozenset({"de", "del", "da", "das", "do", "dos", "la", "las", "los", "van", "von"})


def surname(last: str) -> str:
    """The first surname, with the particles before it: "Vázquez" of "Vázquez Ortega",
    "de la Fuente" of "de la Fuente Ruiz"."""
    words: list[str] = []
    for word in last.split():
        words.append(word)
        if word.lower() not in PARTICLES:
            break
    return " ".join(words)


def short_names(session: Session, entry_ids: list[int]) -> dict[int, str]:
    """Each pair as read from across the room: its players' first surnames ("Vázquez –
    Martín"; the full names are the row's title); a player alone (an individual) by full
    name. Teams keep their names."""
    players: dict[int, list] = {}
    for entry_id, first, last in (
        EntryPlayer.objects.filter(entry_id__in=entry_ids, active=True)
        .order_by("entry_id", "seat")
        .values_list("entry_id", "member__first_name", "member__last_name")
    ):
        players.setdefault(entry_id, []).append((first, last))
    out = {}
    for entry_id, names in players.items():
        if len(names) == 1:
            out[entry_id] = " ".join(part for part in names[0] if part)
        elif len(names) == 2:
            out[entry_id] = " – ".join(surname(last) or first for first, last in names)
    return out


def change_round(state: RoomRound, clock_state: str) -> int | None:
    """The round whose way out is on the screen (see the module's note)."""
    if state.round < 1:
        return None
    leaving = state.round == 1 or state.done > 0 or clock_state == OVER
    if leaving:
        return None if state.last else state.round
    return state.round - 1


def screen(room: RoomScreen, now: datetime.datetime) -> Screen:
    session = room.session
    state = room_round(session, room)
    clock = Clock.of(room)
    clock_state = clock.state(now)
    left = clock.remaining(now)
    ranking = running_ranking(session, room)
    out = Screen(
        room,
        session,
        state,
        clock,
        clock_state,
        None if left is None else int(left.total_seconds()),
        ranking,
    )
    if ranking.shown:
        groups = ranking.room_groups()
        surnames = short_names(session, [r["entry_id"] for _l, g in groups for r in g.rows])
        for _letter, group in groups:
            for row in group.rows:
                row["short_names"] = surnames.get(row["entry_id"]) or row["names"]
        out.pages = layout(groups)
    if out.playing:
        out.change_from = change_round(state, clock_state)
        if out.change_from is not None:
            out.changes = section_changes(session, out.change_from)
    return out


def screen_key(room: RoomScreen, now: datetime.datetime) -> tuple:
    """Everything the screen's content follows, read cheaply (one query more): an ETag made
    from it names the screen as it would be rendered now."""
    session = room.session
    stamp = session.classified_through.timestamp() if session.classified_through else 0
    latest = latest_change(session)
    return (
        room.pk,
        room.token,
        room.changed_at.timestamp() if room.changed_at else 0,
        session.status,
        session.ranking_version,
        stamp,
        latest.timestamp() if latest else 0,
        Clock.of(room).state(now),
    )

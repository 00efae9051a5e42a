"""Knockout brackets as stored: seeding and the first stage, each match scored as averaged
IMPs plus carry-over and decided by the tie rule, the placings, and the live bracket.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.utils.translation import gettext as _

from tournaments.models import (
    Entry,
    KnockoutSeeding,
    KnockoutTie,
    Seating,
    Session,
    TeamEvent,
    TeamMatch,
)
from tournaments.movements import MovementError
from tournaments.movements.teams import knockout
from tournaments.scoring import display_round
from tournaments.services.errors import TournamentError
from tournaments.services.teams.team_matches import (
    MatchScore,
    boards_of_matches,
    compare_board,
    lines_by_room,
    room_score,
    stored_decimal,
)
from tournaments.services.teams.team_schedule import drawn_rounds, team_event, teams_section

DECIDED_BY_IMPS = "imps"


DECIDED_BY_TIE_BOARDS = "tie_boards"


def stages_for(teams: int) -> int:
    """Stages of a bracket for this many teams (byes fill it up to a power of two)."""
    return max(1, (teams - 1).bit_length())


def seeded(
    event: TeamEvent, teams: Sequence[Entry], rng: random.Random | None = None
) -> list[Entry]:
    """The teams best seed first: registration order, the director's seeds (teams without a
    seed follow in registration order) or a random draw."""
    teams = list(teams)
    if event.knockout_seeding == KnockoutSeeding.DRAW:
        (rng or random.SystemRandom()).shuffle(teams)
    elif event.knockout_seeding == KnockoutSeeding.SEEDS:
        rank = {int(pk): i for i, pk in enumerate(event.seeds or [])}
        registered = {e.pk: i for i, e in enumerate(teams)}
        teams.sort(key=lambda e: (rank.get(e.pk, len(rank)), registered[e.pk]))
    return teams


def first_stage(teams: int) -> tuple[dict, list[tuple[int, int]], list[int]]:
    """The bracket (as stored), the first stage's matches (higher seed at home) and the
    teams with a bye."""
    try:
        bracket = knockout(teams)
    except MovementError as exc:
        raise TournamentError(
            _("This schedule is not possible: %(reason)s") % {"reason": exc}
        ) from exc
    pairs, byes = [], []
    for m in bracket.stages[0]:
        if m.is_bye:
            byes.append(m.a if m.a is not None else m.b)
        else:
            pairs.append((min(m.a, m.b), max(m.a, m.b)))
    return bracket.to_dict(), pairs, byes


def _match_numbers(stage: Sequence[dict]) -> dict[int, int]:
    """Bracket match → ``TeamMatch.number`` within a stage: byes have no match row."""
    out, number = {}, 0
    for m in stage:
        if m["a"] is not None and m["b"] is not None:
            number += 1
            out[int(m["match"])] = number
    return out


@dataclass
class KnockoutScore:
    margin: Fraction  # the home team's, carry-over included
    complete: bool
    home_boards: int  # boards won
    away_boards: int


def score_knockout(
    matches: Iterable[TeamMatch], results: Iterable[dict], movement: dict, event: TeamEvent
) -> dict[int, KnockoutScore]:
    """Score every knockout match from loaded rows, in place: IMPs won and lost per team over
    all its boards, the averaged margin with the carry-over, and who went through."""
    rooms = lines_by_room(results)
    boards_of = boards_of_matches(movement)
    out = {}
    for m in matches:
        if m.away_id is None:
            continue
        boards = boards_of.get((m.round, m.number), [])
        totals, margin = MatchScore(), Fraction(m.home_carry) - Fraction(m.away_carry)
        home_boards = away_boards = 0
        for b in boards:
            open_row = rooms.get((m.round, b, m.home_id, m.away_id))
            closed_row = rooms.get((m.round, b, m.away_id, m.home_id))
            if open_row is None or closed_row is None:
                continue
            board = compare_board(
                room_score(open_row["ns_score"], open_row["adjustment"]),
                room_score(closed_row["ns_score"], closed_row["adjustment"]),
            )
            if board is None:
                continue
            totals.add(board)
            # Law 12C4 / C03 l.830, as scoring.teams.knockout_board: both sides get the average.
            average = (board.home_imps - board.away_imps) / 2
            margin += average
            home_boards += average > 0
            away_boards += average < 0
        m.home_won, m.home_lost = stored_decimal(totals.home_won), stored_decimal(totals.home_lost)
        m.away_won, m.away_lost = stored_decimal(totals.away_won), stored_decimal(totals.away_lost)
        m.boards_played = totals.boards
        m.home_vp = m.away_vp = None
        score = KnockoutScore(
            margin, bool(boards) and totals.boards == len(boards), home_boards, away_boards
        )
        out[m.pk] = score
        m.margin = display_round(margin) if totals.boards or margin else None
        m.winner_id, m.decided_by = _decide(m, score, event)
    return out


def _decide(m: TeamMatch, score: KnockoutScore, event: TeamEvent) -> tuple[int | None, str]:
    if not score.complete:
        return None, ""
    if score.margin >= 1:
        return m.home_id, DECIDED_BY_TIE_BOARDS if m.tie_segments else DECIDED_BY_IMPS
    if score.margin <= -1:
        return m.away_id, DECIDED_BY_TIE_BOARDS if m.tie_segments else DECIDED_BY_IMPS
    # Tied: neither team won by 1 IMP (C03 l.177). The home team is the higher seed.
    if event.knockout_tie == KnockoutTie.HIGHER_SEED:
        return m.home_id, KnockoutTie.HIGHER_SEED
    if event.knockout_tie == KnockoutTie.MOST_BOARDS:
        if score.away_boards > score.home_boards:
            return m.away_id, KnockoutTie.MOST_BOARDS
        return m.home_id, (
            KnockoutTie.MOST_BOARDS
            if score.home_boards > score.away_boards
            else KnockoutTie.HIGHER_SEED
        )
    return None, ""  # extra boards: the director adds a segment


def stage_place(stages: int, lost_in: int) -> int:
    """The place of a team knocked out in stage ``lost_in`` of a ``stages``-stage bracket: the
    final's loser is 2nd, the semi-finals' losers 3rd, the quarter-finals' 5th, and so on."""
    return 2 ** (stages - lost_in) + 1


def rank_knockout(lines: Sequence, matches: Iterable[TeamMatch], stages: int) -> list:
    """Order a knockout's standings by the stage each team reached (pure, in place).

    The cup winner is 1st and the final's loser 2nd. The bracket has no play-off for third,
    so the teams knocked out in the same stage share a place (the losing semi-finalists are
    both 3rd, as clubs give them), whatever their IMPs. Teams still in the event share the
    top place until the next stage decides between them. The IMPs (``points``) only order
    teams sharing a place, as the page lists them.
    """
    lost_in: dict[int, int] = {}
    champion = None
    for m in matches:
        if m.away_id is None or m.winner_id is None:
            continue
        lost_in[m.away_id if m.winner_id == m.home_id else m.home_id] = m.round
        if m.round == stages:
            champion = m.winner_id

    def place(line) -> int:
        if line.entry_id == champion:
            return 1
        if line.entry_id in lost_in:
            return stage_place(stages, lost_in[line.entry_id])
        return 1  # still in the event

    places = {line.entry_id: place(line) for line in lines}
    shared = {p: sum(1 for q in places.values() if q == p) for p in places.values()}
    ordered = sorted(lines, key=lambda t: (places[t.entry_id], -t.points, t.number))
    for line in ordered:
        line.place = places[line.entry_id]
        line.tied = shared[line.place] > 1
        line.decided_by = ""
    return ordered


KNOCKOUT_FIELDS = ("margin", "winner", "decided_by")


def save_knockout(matches: Sequence[TeamMatch]) -> None:
    TeamMatch.objects.bulk_update(
        [m for m in matches if m.away_id is not None], list(KNOCKOUT_FIELDS)
    )


def tie_rule_in_use(session: Session) -> bool:
    """Whether a tie was settled (by the rule or by tie-break boards) in a stage the next one
    has been drawn from: changing the rule then would unseat a team already playing on."""
    last = drawn_rounds(session)
    settled = TeamMatch.objects.filter(session=session, round__lt=last).exclude(away__isnull=True)
    return any(
        m.decided_by != DECIDED_BY_IMPS or m.tie_segments
        for m in settled
        if m.winner_id is not None
    )


def is_tied(match: TeamMatch, boards_per_match: int | None = None) -> bool:
    """Every board (tie-break segments too) is in and neither team is through: the director
    adds a tie-break segment."""
    k = match.session.boards_per_round if boards_per_match is None else boards_per_match
    expected = k + sum(len(segment) for segment in match.tie_segments)
    return (
        match.away_id is not None
        and match.winner_id is None
        and match.margin is not None
        and abs(match.margin) < 1
        and match.boards_played >= expected
    )


@dataclass
class BracketSide:
    number: int | None  # seed (the team's number)
    name: str
    entry_id: int | None = None
    through: bool = False
    carry: Decimal = Decimal(0)
    pending: str = ""  # "W<stage>-<match>" while not yet known
    imps: Decimal | None = None  # the side's averaged IMPs, carry-over included


@dataclass
class BracketMatch:
    stage: int
    number: int
    a: BracketSide
    b: BracketSide
    match: TeamMatch | None = None

    @property
    def is_bye(self) -> bool:
        return self.a.number is None or self.b.number is None


def side_imps(match: TeamMatch, *, home: bool) -> Decimal | None:
    """A side's knockout IMPs: what it won and what the other side lost, averaged (so the two
    totals differ by the averaged margin, Law 12C4), plus its carry-over."""
    if not match.boards_played and not (match.home_carry or match.away_carry):
        return None
    if home:
        total = (Decimal(match.home_won) + Decimal(match.away_lost)) / 2 + match.home_carry
    else:
        total = (Decimal(match.away_won) + Decimal(match.home_lost)) / 2 + match.away_carry
    return total


def match_score(match: TeamMatch) -> tuple[Decimal, Decimal] | None:
    """The home and away knockout score of a knockout match (what decides it, not each
    team's own IMPs), for the public match page and the table's match screen alike; ``None``
    outside a knockout or before anything is scored or carried."""
    if not team_event(match.session.tournament).is_knockout:
        return None
    home, away = side_imps(match, home=True), side_imps(match, home=False)
    return (home, away) if home is not None else None


def live_bracket(session: Session) -> tuple[list[list[BracketMatch]], BracketSide | None]:
    """The stored bracket with the stored matches: who met whom, scores, who went through;
    and the winner once the final is decided (three queries)."""
    section = teams_section(session)
    bracket = (section.movement or {}).get("bracket")
    if not bracket:
        return [], None
    seats = {
        s["number"]: (s["entry_id"], s["entry__name"] or s["entry__display_name"])
        for s in Seating.objects.filter(session=session).values(
            "number", "entry_id", "entry__name", "entry__display_name"
        )
    }
    stored = {
        (m.round, m.number): m
        for m in TeamMatch.objects.filter(session=session).exclude(away__isnull=True)
    }
    numbers = {e: n for n, (e, _name) in seats.items()}
    stages: list[list[BracketMatch]] = []
    champion = None
    winners: dict[str, BracketSide] = {}
    for s, stage in enumerate(bracket["stages"], start=1):
        row_of = _match_numbers(stage)
        out = []
        for bm in stage:
            match = stored.get((s, row_of.get(int(bm["match"]), 0)))
            sides = []
            if match is not None:
                for entry_id, carry, imps in (
                    (match.home_id, match.home_carry, side_imps(match, home=True)),
                    (match.away_id, match.away_carry, side_imps(match, home=False)),
                ):
                    n = numbers.get(entry_id)
                    sides.append(
                        BracketSide(
                            n,
                            seats.get(n, (None, ""))[1],
                            entry_id,
                            match.winner_id == entry_id,
                            carry,
                            imps=imps,
                        )
                    )
            else:
                for value in (bm["a"], bm["b"]):
                    if value is None:
                        sides.append(BracketSide(None, ""))
                    elif isinstance(value, str):  # known once that match is decided
                        known = winners.get(value)
                        sides.append(
                            BracketSide(known.number, known.name, known.entry_id)
                            if known
                            else BracketSide(None, "", pending=value)
                        )
                    else:
                        entry_id, name = seats.get(int(value), (None, ""))
                        sides.append(
                            BracketSide(
                                int(value),
                                name,
                                entry_id,
                                through=bm["a"] is None or bm["b"] is None,
                            )
                        )
            out.append(BracketMatch(s, int(bm["match"]), sides[0], sides[1], match))
            for side in sides:
                if side.through and side.number is not None:
                    winners[f"W{s}-{bm['match']}"] = side
        stages.append(out)
    final = stages[-1][0] if stages and stages[-1] else None
    if final is not None and final.match is not None and final.match.winner_id:
        champion = final.a if final.a.through else final.b
    return stages, champion

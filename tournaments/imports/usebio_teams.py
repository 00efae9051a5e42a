"""Importing a USEBIO teams file as a finished teams tournament, then checking its figures.

The file becomes a teams event like one run here: a ``TeamEvent`` (Swiss for SWISS_TEAMS,
round robin otherwise; the boards per match from the matches; the VP scale is the one of
ours that reproduces the file's VPs, the bye award the file's), the teams as entries
(players matched to members by licence, guests otherwise), one section "A" whose stored
movement is the file's schedule (open room table 2m-1 with the home team North-South,
closed room table 2m), the ``TeamMatch`` rows and both rooms' results. Our cores then score
it (``services.teams.classify_teams`` through the classification), and ``verify_teams``
lists every figure of the file we do not reproduce: team totals and places, each match's
IMPs and VPs and each board's IMPs.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from fractions import Fraction

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.services.entries import registration
from tournaments.services.setup import events as setup
from tournaments.services.teams import team_events, team_matches, team_schedule

from ..models import (
    Board,
    EventType,
    Result,
    Seating,
    TeamFormat,
    TeamMatch,
    Tournament,
    VPScale,
)
from ..scoring import Role, display_round
from ..scoring.teams import TEAM_ARTIFICIAL_IMPS
from ..scoring.vp import COURSE25_BOARDS, match_vps
from ..services.errors import TournamentError
from .usebio_conventions import places_shared
from .usebio_parse import FileEvent, FileMatch, FileSection, UsebioError
from .usebio_save import People, finish, result_fields, result_reason, save_deals, save_results
from .usebio_verify import differs, rules_tried
from .usebio_verify import verify as verify_pairs


def _boards_by_round(fs: FileSection) -> dict[int, list[int]]:
    out: dict[int, set[int]] = defaultdict(set)
    for number, lines in fs.boards.items():
        for line in lines:
            out[line.round or 0].add(number)
    for m in fs.matches:
        out[m.round].update(m.board_imps)
    return {r: sorted(b) for r, b in out.items()}


def _margins(m: FileMatch) -> tuple[Fraction, Fraction] | None:
    """Each team's IMP margin over the match: the sum of its signed IMPs on the boards (the
    two differ when an adjusted board gives the teams IMPs that do not cancel)."""
    values = list(m.board_imps.values())
    if not values or any(h is None or a is None for h, a in values):
        return None
    home = sum((Fraction(str(h)) for h, _a in values), Fraction(0))
    away = sum((Fraction(str(a)) for _h, a in values), Fraction(0))
    return home, away


# Our scales, then the ways scorers print the continuous one: to 0.1, and with the loser
# given 20 minus the winner's VPs (scale, decimals, loser's VPs).
VP_STYLES = [
    (VPScale.WBF20, 2, "own"),
    (VPScale.WBF20_DISCRETE, 2, "own"),
    (VPScale.COURSE25, 2, "own"),
    (VPScale.WBF20, 1, "own"),
    (VPScale.WBF20, 1, "complement"),
    (VPScale.WBF20, 2, "complement"),
]


def vp_scale_of(fs: FileSection, k: int) -> tuple[str, int, str]:
    """(scale, decimals, loser's VPs) that give every match the file's VPs, both teams' (the
    WBF's continuous scale as the WBF prints it if none does, or the file has no VPs:
    verify then shows the matches that differ)."""
    played = [
        (m, _margins(m)) for m in fs.matches if m.away is not None and m.home_score is not None
    ]
    played = [(m, margins) for m, margins in played if margins is not None]
    for scale, places, loser in VP_STYLES:
        if scale == VPScale.COURSE25 and k not in COURSE25_BOARDS:
            continue
        if all(
            _same(match_vps(*margins, k, scale, places=places, loser=loser), m)
            for m, margins in played
        ):
            return scale, places, loser
    return VPScale.WBF20, 2, "own"


def _same(ours: tuple[Fraction, Fraction], m: FileMatch) -> bool:
    return display_round(ours[0]) == m.home_score and (
        m.away_score is None or display_round(ours[1]) == m.away_score
    )


def _schedule(fs: FileSection) -> list[tuple[int, list[tuple[int, int]], int | None]]:
    rounds: dict[int, list[FileMatch]] = defaultdict(list)
    for m in fs.matches:
        rounds[m.round].append(m)
    out = []
    for r in sorted(rounds):
        played = sorted((m for m in rounds[r] if m.away is not None), key=lambda m: m.number)
        byes = [m.home for m in rounds[r] if m.away is None]
        if len(byes) > 1:
            raise UsebioError(_("Round %(round)s has more than one bye.") % {"round": r})
        out.append((r, [(m.home, m.away) for m in played], byes[0] if byes else None))
    return out


ROLES = {60: "A+", 50: "A", 40: "A-"}
ROLE_IMPS = {
    "A+": TEAM_ARTIFICIAL_IMPS[Role.NON_OFFENDER],
    "A": TEAM_ARTIFICIAL_IMPS[Role.PARTLY_AT_FAULT],
    "A-": TEAM_ARTIFICIAL_IMPS[Role.OFFENDER],
}


def awarded_imps(fs: FileSection) -> dict[int, dict]:
    """id(line) → the IMPs the file gives an artificial score, where they are not the roles'
    ±3 / 0 (Law 12C2b) and it is the only artificial score of its board in its match (the
    board's IMPs are then its award: home and away as the room's NS and EW)."""
    by_team = {(m.round, t): m for m in fs.matches if m.away is not None for t in (m.home, m.away)}
    found: dict[tuple[int, int], list] = defaultdict(list)
    for number, lines in fs.boards.items():
        for line in lines:
            m = by_team.get((line.round, line.ns))
            if m is not None and line.adjustment and line.adjustment.get("kind") == "artificial":
                found[(id(m), number)].append((m, line))
    out = {}
    for (_match, number), items in found.items():
        home, away = items[0][0].board_imps.get(number, (None, None))
        if len(items) != 1 or home is None or away is None:
            continue
        m, line = items[0]
        ns, ew = (home, away) if line.ns == m.home else (away, home)
        roles = as_roles(line.adjustment)
        given = (Fraction(ns), Fraction(ew))
        if (ROLE_IMPS.get(roles["ns"]), ROLE_IMPS.get(roles["ew"])) != given:
            out[id(line)] = {"ns_imps": str(ns), "ew_imps": str(ew)}
    return out


def as_roles(adjustment: dict | None) -> dict | None:
    """A file writes A+/A/A− as 60/50/40 (``A6050``); a teams event keeps the roles, which
    it scores as ±3 or 0 IMPs (Law 12C2b)."""
    if not adjustment or adjustment.get("kind") != "artificial":
        return adjustment
    sides = [ROLES.get(adjustment.get(side)) for side in ("ns", "ew")]
    if None in sides:
        return adjustment
    return {**adjustment, "ns": sides[0], "ew": sides[1]}


@transaction.atomic
def import_teams(event: FileEvent, *, user=None, file_name: str = "") -> tuple[Tournament, dict]:
    if len(event.sections) != 1 or event.session_count != 1:
        raise UsebioError(_("A teams file is imported with one session of one section."))
    fs = event.sections[0]
    schedule = _schedule(fs)
    by_round = _boards_by_round(fs)
    k = max((len(b) for r, b in by_round.items() if r), default=0)
    if not k:
        raise UsebioError(_("The teams file holds no boards."))
    byes = [m.home_score for m in fs.matches if m.away is None and m.home_score is not None]
    scale, places, loser = vp_scale_of(fs, k)
    tournament = setup.create_tournament(
        name=event.name,
        date=event.date,
        venue=event.venue,
        event_type=EventType.TEAMS,
        scoring_method=event.scoring_method,
        user=user,
    )
    settings = {
        "format": TeamFormat.SWISS if event.event_type == "SWISS_TEAMS" else TeamFormat.ROUND_ROBIN,
        "swiss_rounds": max(len(schedule), 1),
        "boards_per_match": k,
        "vp_scale": scale,
    }
    conventions = {}
    if event.method.ranks_by_vps:
        conventions["vp_scale"] = scale
        if scale == VPScale.WBF20:
            conventions.update(vp_places=places, vp_loser=loser)
    if places_shared(event):
        conventions["places"] = "shared"
    awards = awarded_imps(fs)
    if awards:
        conventions["artificial"] = "awarded"
    Tournament.objects.filter(pk=tournament.pk).update(conventions=conventions)
    tournament.conventions = conventions
    if byes:
        settings["bye_vp"] = byes[0]
    try:
        team_events.configure(tournament, **settings)
    except TournamentError as exc:
        raise UsebioError(exc.message) from exc
    people = People(event)
    entries = {}
    for team in fs.pairs:
        try:
            entries[team.number] = registration.register_entry(
                tournament, [people.member(p) for p in team.players], name=team.name[:120]
            )
        except TournamentError as exc:
            raise UsebioError(
                _("Team %(team)s: %(problem)s")
                % {"team": team.name or team.number, "problem": exc.message}
            ) from exc
    session = tournament.sessions.get()
    section = setup.add_section(session, fs.letter)
    Seating.objects.bulk_create(
        Seating(session=session, section=section, entry=e, number=n, direction="")
        for n, e in sorted(entries.items())
    )
    rounds = []
    for r, pairs, bye in schedule:
        plan = team_schedule.round_tables(r, pairs, k, bye)
        for table in plan["tables"]:
            table["boards"] = by_round.get(r, table["boards"])
        rounds.append(plan)
    movement = {
        "kind": "teams",
        "numbering": "team",
        "teams": len(entries),
        "tables": 2 * (len(entries) // 2),
        "boards_per_round": k,
        "rounds": rounds,
    }
    section.movement, section.tables = movement, movement["tables"]
    section.save(update_fields=["movement", "tables"])
    session.rounds, session.boards_per_round = len(rounds), k
    session.save(update_fields=["rounds", "boards_per_round"])
    TeamMatch.objects.bulk_create(team_schedule.round_matches(session, schedule, entries))
    setup.ensure_boards(section)
    save_deals(tournament, event.deals, event.conditions)
    boards = {b.number: b for b in Board.objects.filter(session=session)}
    number_of = {
        (r, home): i for r, pairs, _b in schedule for i, (home, _away) in enumerate(pairs, start=1)
    }
    number_of.update(
        {
            (r, away): i
            for r, pairs, _b in schedule
            for i, (_home, away) in enumerate(pairs, start=1)
        }
    )
    home_of = {
        (r, i): home for r, pairs, _b in schedule for i, (home, _away) in enumerate(pairs, start=1)
    }
    notes: list[dict] = []
    rows = []
    for number, lines in sorted(fs.boards.items()):
        for line in lines:
            m = number_of.get((line.round, line.ns))
            where = _("Round %(round)s, board %(board)s, %(ns)s v %(ew)s") % {
                "round": line.round,
                "board": number,
                "ns": line.ns,
                "ew": line.ew,
            }
            if m is None or number not in boards:
                raise UsebioError(
                    _("%(where)s: no match of the file holds this line.") % {"where": where}
                )
            table = 2 * m - 1 if home_of[(line.round, m)] == line.ns else 2 * m
            fields = result_fields(boards[number], line, notes, where)
            fields["adjustment"] = as_roles(fields["adjustment"])
            if id(line) in awards:
                fields["adjustment"] = {**fields["adjustment"], **awards[id(line)]}
            rows.append(
                Result(
                    section=section,
                    board=boards[number],
                    round=line.round,
                    table=table,
                    ns=entries[line.ns],
                    ew=entries[line.ew],
                    entered_by=user,
                    confirmed=True,
                    reason=result_reason(file_name),
                    **fields,
                )
            )
    save_results(rows)
    finish(tournament, user=user, file_name=file_name, points=people.points)
    summary = {
        "event": event.name,
        "program": event.program,
        "club": event.club_name,
        "sessions": 1,
        "sections": 1,
        "teams": len(entries),
        "pairs": len(entries),
        "matches": sum(1 for m in fs.matches if m.away is not None),
        "members": len(people.matched),
        "guests": len(people.guests),
        "boards": len(fs.boards),
        "lines": len(rows),
        "deals": len(event.deals),
        "conventions": conventions,
    }
    return tournament, {"summary": summary, "notes": notes}


def _note(
    out: list[dict],
    what: str,
    where: str,
    file_value: Decimal | None,
    ours,
    tried: dict | None = None,
) -> None:
    if differs(file_value, ours):
        out.append(
            {
                "what": what,
                "where": where,
                "file": str(file_value),
                "ours": "" if ours is None else str(ours),
                "tried": tried,
            }
        )


def verify_teams(tournament: Tournament, event: FileEvent) -> list[dict]:
    """Team totals and places (as for pairs), then every match's and board's figures."""
    out = verify_pairs(tournament, event)
    session = tournament.sessions.get()
    numbers = team_schedule.numbers_of(session)
    ours = {
        (m.round, numbers.get(m.home_id)): m
        for m in TeamMatch.objects.filter(session=session).select_related("session")
    }
    vps = tournament.method.ranks_by_vps
    tried = rules_tried(tournament.conventions or {})
    for fm in event.sections[0].matches:
        match = ours.get((fm.round, fm.home))
        where = _("Round %(round)s, match %(home)s v %(away)s") % {
            "round": fm.round,
            "home": fm.home,
            "away": fm.away or "-",
        }
        if match is None:
            out.append(
                {"what": "match", "where": where, "file": str(fm.home), "ours": "", "tried": tried}
            )
            continue
        if fm.away is None:
            _note(out, "bye", where, fm.home_score, match.home_vp if vps else 0, tried)
            continue
        _note(out, "IMPs", where, fm.home_imps, match.home_won, tried)
        _note(out, "IMPs (opponents)", where, fm.away_imps, match.away_won, tried)
        _note(
            out, "score", where, fm.home_score, match.home_vp if vps else match.home_margin, tried
        )
        _note(
            out,
            "score (opponents)",
            where,
            fm.away_score,
            match.away_vp if vps else match.away_margin,
            tried,
        )
        boards = {b.number: b for b in team_matches.match_boards(match)}
        for number, (home, away) in sorted(fm.board_imps.items()):
            line = boards.get(number)
            board_where = _("%(match)s, board %(board)s") % {"match": where, "board": number}
            _note(
                out,
                "board IMPs",
                board_where,
                home,
                None if line is None or line.home_imps is None else display_round(line.home_imps),
                tried,
            )
            _note(
                out,
                "board IMPs (opponents)",
                board_where,
                away,
                None if line is None or line.away_imps is None else display_round(line.away_imps),
                tried,
            )
    return out

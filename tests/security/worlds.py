"""Events in the states whose pages carry a form, shared by the permission matrix's world
(``conftest.py``) and the hostile crawl's (``test_hostile_input.py``): a teams event (Swiss,
knockout) before and after its start, a knockout with a tied match or a decided stage, a
two-session pairs event, a stored conflict, a password-reset link.

Each builder takes the members to register (at least sixteen) and goes through the services,
as the director would.
"""

import datetime
import uuid

from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from tournaments.models import EventType, ScoringMethod, TeamMatch
from tournaments.services.entries import registration
from tournaments.services.results import publish
from tournaments.services.setup import events as setup
from tournaments.services.table import entry
from tournaments.services.teams import team_events, team_schedule


def teams_event(
    members,
    *,
    format="swiss",
    count=4,
    name="Equipos",
    start=True,
    scoring=ScoringMethod.VPS,
    **settings,
):
    """``count`` teams of four; started (round or stage 1 drawn) unless ``start`` is False."""
    tournament = setup.create_tournament(
        name=name,
        date=datetime.date(2025, 6, 3),
        event_type=EventType.TEAMS,
        scoring_method=scoring,
    )
    team_events.configure(tournament, format=format, boards_per_match=2, **settings)
    for i in range(count):
        registration.register_entry(tournament, members[4 * i : 4 * i + 4], name=f"Equipo {i + 1}")
    if start:
        team_events.start_teams(tournament)
    return tournament


def play_match(match, scores, user=None):
    """Both rooms of ``match``: ``scores`` maps a board to its (open, closed) NS score."""
    section = match.session.sections.get()
    for board, (open_ns, closed_ns) in scores.items():
        for table, score in ((match.open_table, open_ns), (match.closed_table, closed_ns)):
            entry.submit_result(
                user=user,
                section=section,
                table=table,
                round=match.round,
                board=board,
                contract="3NT",
                declarer="N",
                tricks=9,
                ns_score=score,
                idempotency_key=uuid.uuid4().hex,
            )


def knockout(members, *, name="Copa KO", played=None, director=None):
    """A started knockout of four teams (IMPs, tie-breaks on extra boards), published
    provisionally; ``played`` is a (match 1, match 2) pair of ``play_match`` scores, entered
    by ``director``."""
    tournament = teams_event(
        members,
        format="knockout",
        name=name,
        scoring=ScoringMethod.IMPS,
        knockout_tie="extra_boards",
        tie_boards=2,
    )
    session = team_schedule.teams_session(tournament)
    matches = list(TeamMatch.objects.filter(session=session, round=1).order_by("number"))
    for m, scores in zip(matches, played or (), strict=False):
        play_match(m, scores, director)
    publish.publish_provisional(tournament, user=None)
    return tournament, matches[0]


DECIDED = {1: (470, 420), 2: (420, 420)}  # open room +50 on board 1: 2 IMPs
TIED = {1: (420, 420), 2: (420, 420)}


def two_sessions(members, *, second_played=True, publish_final=True, name="Dos sesiones"):
    """A two-session pairs event, session 1 played and finished; session 2 seated from it,
    played and (unless ``publish_final`` is False) the whole published final, or
    (``second_played`` False) not seated yet."""
    from tests.tournaments.conftest import make_pairs
    from tests.tournaments.support.multisession import make_event, play, seat

    tournament, _entries = make_event(
        members, make_pairs, sessions=2, sections=1, tables=3, name=name
    )
    first, second = tournament.sessions.order_by("number")
    play(first)
    if second_played:
        seat(second, "same", None)
        play(second)
        if publish_final:
            publish.publish_final(tournament, user=None)
    return tournament


def conflict(section, table, round_, board):
    """Two table devices' different results for one line: the second waits for the director."""
    from tournaments.models import TableCode

    code = TableCode.objects.get(section=section, table=table, active=True)
    entry.submit_result(
        table_code=code,
        round=round_,
        board=board,
        contract="4S",
        declarer="N",
        tricks=10,
        idempotency_key=uuid.uuid4().hex,
    )
    return entry.submit_result(
        table_code=code,
        round=round_,
        board=board,
        contract="4S",
        declarer="N",
        tricks=9,
        idempotency_key=uuid.uuid4().hex,
    ).result


def reset_link(user) -> tuple[str, str]:
    """The uid and token of ``user``'s password-reset link (a login spoils the token)."""
    return (urlsafe_base64_encode(force_bytes(user.pk)), default_token_generator.make_token(user))


def online_entry(members, player):
    """Three tournaments open for online entry (one table each): ``player``'s member entered
    in the first (full, a pair waiting), asking for a partner in the second, neither in the
    third, so the event pages offer every member's form (cancel, withdraw, enter, partner)."""
    from django.utils import timezone

    from clubsite.models import Member
    from tournaments.services.entries import online_entry

    day = timezone.localdate() + datetime.timedelta(days=9)
    online = [
        setup.create_tournament(name=f"Online {i}", date=day, online_entry=True, max_tables=1)
        for i in range(3)
    ]
    me = Member.objects.get(user=player)
    others = [m for m in members[40:] if m.pk != me.pk]
    online_entry.enter(online[0], [me, others[0]], user=player)
    for i in (1, 3):
        online_entry.enter(online[0], others[i : i + 2], user=None, by_director=True)
    online_entry.ask_for_partner(online[1], user=player)
    return online

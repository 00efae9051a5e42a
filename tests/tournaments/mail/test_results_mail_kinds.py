"""Results by mail for each kind of event, end to end without HTTP: a Swiss teams event and
an individual (the team's or the player's line in the event's ranking, the results page
instead of a pair's scorecard) and a two-session pairs tournament (the overall ranking's
line, not a session's, and a scorecard link for each session played)."""

import pytest
from django.core import mail
from django.utils import translation
from django.utils.formats import number_format

from clubsite.models import Member
from tournaments import demo
from tournaments.models import RankingScope, StoredRanking, Tournament
from tournaments.services.mail import results_mail
from tournaments.services.mail.mail_texts import line_text
from tournaments.services.results import publish

pytestmark = pytest.mark.django_db

BASE = "https://club.example.org"


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def _build(demo_club, monkeypatch, movements, tail):
    monkeypatch.setattr(
        demo,
        "_movements",
        lambda: (movements.mitchell, lambda tables, boards: movements.howell(boards, phantom=None)),
    )
    demo.build_tournaments(only=(tail,))
    return Tournament.objects.get(slug__endswith=tail)


def _event_line(tournament, member):
    entry = member.entry_seats.get(entry__tournament=tournament).entry
    row = StoredRanking.objects.get(tournament=tournament, entry=entry, scope=RankingScope.EVENT)
    count = StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.EVENT).count()
    return entry, row, count


def _english_drafts(tournament):
    Member.objects.filter(entry_seats__entry__tournament=tournament).update(language="en")
    shown = results_mail.preview(tournament, BASE)
    assert shown.drafts and mail.outbox == []
    return shown


def _check_event_kind(tournament, entries):
    shown = _english_drafts(tournament)
    for draft in shown.drafts:
        entry, row, count = _event_line(tournament, draft.member)
        assert (draft.line["place"], draft.line["count"]) == (row.place, entries)
        assert count == entries
        assert f"Your ranking: {line_text(draft.line)}\n" in draft.body
        assert draft.body.count(f"{BASE}/results/{tournament.slug}/\n") == 1
        assert "/pair/" not in draft.body and "Your scorecard" not in draft.body
        assert f"{BASE}/results/{tournament.slug}/pdf/" in draft.body
    return shown


def test_a_teams_event_mails_each_player_their_teams_line(demo_club, monkeypatch, movements):
    swiss = _build(demo_club, monkeypatch, movements, "swiss-de-equipos-de-otono")
    shown = _check_event_kind(swiss, entries=8)
    draft = shown.drafts[0]
    _entry, row, _count = _event_line(swiss, draft.member)
    assert draft.line["percentage"] == ""  # the VPs, not the IMPs won-lost nor a fraction
    assert draft.line["points"] == str(row.points)
    assert f"{number_format(row.points, 2)} VPs\n" in draft.body and "E+" not in draft.body
    assert "Your ranking: " in draft.body and "overall" not in draft.body
    # every player of a team has the same line: the fifth player of Los Ases too
    ases = [
        d
        for d in shown.drafts
        if d.member.entry_seats.get(entry__tournament=swiss).entry.name == "Los Ases"
    ]
    assert len({line_text(d.line) for d in ases}) == 1


def test_an_individual_mails_each_player_their_own_line(demo_club, monkeypatch, movements):
    solo = _build(demo_club, monkeypatch, movements, "individual-de-otono")
    shown = _english_drafts(solo)  # one session: the individual ranks in its section
    assert len(shown.drafts) + len(shown.left_out) == 16  # the others have no address
    assert {str(why) for _m, why in shown.left_out} <= {"no e-mail address"}
    for draft in shown.drafts:
        entry = draft.member.entry_seats.get(entry__tournament=solo).entry
        row = StoredRanking.objects.get(tournament=solo, entry=entry)
        assert (draft.line["place"], draft.line["count"]) == (row.place, 16)
        assert draft.line["percentage"] == f"{row.percentage:.2f}"
        assert draft.line["direction"] == ""  # an individual has no NS/EW line
        assert f"Your ranking: {line_text(draft.line)}\n" in draft.body
        assert f"{BASE}/results/{solo.slug}/\n" in draft.body
        assert "/pair/" not in draft.body and "Your scorecard" not in draft.body
    places = sorted(d.line["place"] for d in shown.drafts)
    assert len(places) == len({d.member.pk for d in shown.drafts})


@pytest.fixture
def two_sessions(members, pairs, director):
    from tests.tournaments.support.multisession import make_event, play, seat

    tournament, _entries = make_event(
        members, pairs, sessions=2, sections=1, tables=3, rounds=3, name="Dos sesiones"
    )
    play(tournament.sessions.get(number=1))
    seat(tournament.sessions.get(number=2), "same", director)
    play(tournament.sessions.get(number=2), seed=2)
    for i, member in enumerate(members[:12]):
        member.email, member.language = f"p{i}@example.org", "en"
        member.save()
    publish.publish_final(tournament, user=director)
    tournament.refresh_from_db()
    return tournament


def test_a_two_session_tournament_mails_the_overall_line(two_sessions):
    shown = results_mail.preview(two_sessions, BASE)
    assert len(shown.drafts) == 12
    for draft in shown.drafts:
        entry, row, count = _event_line(two_sessions, draft.member)
        assert count == 6
        assert (draft.line["place"], draft.line["count"]) == (row.place, 6)
        assert draft.line["percentage"] == f"{row.percentage:.2f}"
        assert draft.line["direction"] == ""  # the overall ranking has no NS/EW line
        assert 0 < row.percentage < 100
        assert f"Your overall ranking: {line_text(draft.line)}\n" in draft.body
        for number in (1, 2):
            assert f"{BASE}/results/{two_sessions.slug}/{number}/pair/{entry.pk}/" in draft.body
        assert f"{BASE}/results/{two_sessions.slug}/pdf/" in draft.body

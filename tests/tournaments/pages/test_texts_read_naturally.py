"""Texts a person reads: the Law 79C deadline with its date and time, and the number of
players an entry needs without "from 2 to 2"."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format

from tournaments.models import EventType
from tournaments.services.entries import registration
from tournaments.services.errors import CorrectionPeriodOver, TournamentError
from tournaments.services.results import publish
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "language,two,range_",
    [
        ("es", "necesita 2 jugadores distintos", "de 4 a 6 jugadores"),
        ("pt", "precisa de 2 jogadores diferentes", "de 4 a 6 jogadores"),
        ("en", "needs 2 different players", "4 to 6 different players"),
    ],
)
def test_players_per_entry_read_naturally(members, language, two, range_):
    pairs = setup.create_tournament(name="Pares", date=datetime.date(2025, 3, 4))
    teams = setup.create_tournament(
        name="Equipos", date=datetime.date(2025, 3, 5), event_type=EventType.TEAMS
    )
    with translation.override(language):
        with pytest.raises(TournamentError) as too_many:
            registration.register_entry(pairs, members[:3])
        with pytest.raises(TournamentError) as too_few:
            registration.register_entry(teams, members[:2])
    assert two in too_many.value.message and "2 a 2" not in too_many.value.message
    assert "2 to 2" not in too_many.value.message
    assert range_ in too_few.value.message


def _published(section):
    setup.finish_session(section.session)
    tournament = section.session.tournament
    publish.publish_final(tournament, user=None)
    tournament.refresh_from_db()
    return tournament


def test_the_correction_deadline_shows_its_date_and_time(director_client, mitchell_session):
    tournament = _published(mitchell_session)
    ends = timezone.localtime(tournament.correction_period_ends)
    with translation.override("es"):
        shown = date_format(ends, "DATETIME_FORMAT")
    assert str(ends.year) in shown and ends.strftime("%H:%M") in shown
    director_page = director_client.get(reverse("director:tournament", args=[tournament.pk]))
    public_page = director_client.get(reverse("results:tournament", args=[tournament.slug]))
    for page in (director_page, public_page):
        html = page.content.decode()
        assert 'id="correction-period"' in html and shown in html


def test_the_refusal_after_the_deadline_names_its_date(mitchell_session):
    tournament = _published(mitchell_session)
    tournament.published_at = timezone.now() - datetime.timedelta(hours=3)
    tournament.save(update_fields=["published_at"])
    with translation.override("en"), pytest.raises(CorrectionPeriodOver) as refused:
        publish.correction_allowed(tournament, override=False)
    assert str(timezone.localtime(tournament.correction_period_ends).year) in refused.value.message


# --- a withdrawal can be undone ---------------------------------------------------------------


def test_a_withdrawal_is_undone_from_the_entries_page(director_client, mitchell_session, director):
    from tournaments.models import AuditAction, AuditEntry, EntryStatus

    tournament = mitchell_session.session.tournament
    pair = mitchell_session.seatings.get(number=3, direction="NS").entry
    registration.withdraw_entry(pair, user=director, reason="Enfermo")
    page = director_client.get(reverse("director:entries", args=[tournament.pk]))
    assert (
        f'action="{reverse("director:entry_reinstate", args=[pair.pk])}"' in page.content.decode()
    )
    url = reverse("director:entry_reinstate", args=[pair.pk])
    director_client.post(url, {"reason": ""})
    pair.refresh_from_db()
    assert pair.status == EntryStatus.WITHDRAWN  # no reason: nothing changes
    director_client.post(url, {"reason": "Se encuentra mejor"})
    pair.refresh_from_db()
    assert pair.status == EntryStatus.ACTIVE
    trail = AuditEntry.objects.get(action=AuditAction.REINSTATED)
    assert trail.reason == "Se encuentra mejor" and trail.user == director
    # an active entry cannot be "reinstated"
    from tournaments.services.entries.reinstatement import reinstate_entry

    with pytest.raises(TournamentError):
        reinstate_entry(pair, user=director, reason="again")


def test_no_undo_when_a_player_plays_elsewhere_now(mitchell_session, director, members):
    from tournaments.models import EntryStatus
    from tournaments.services.entries.reinstatement import reinstate_entry

    tournament = mitchell_session.session.tournament
    pair = mitchell_session.seatings.get(number=3, direction="NS").entry
    registration.withdraw_entry(pair, user=director, reason="Se van")
    player = pair.entry_players.filter(active=True).first().member
    registration.register_entry(tournament, [player, members[59]])
    with pytest.raises(TournamentError) as refused:
        reinstate_entry(pair, user=director, reason="Vuelven")
    assert player.full_name in refused.value.message
    pair.refresh_from_db()
    assert pair.status == EntryStatus.WITHDRAWN

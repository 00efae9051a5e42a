"""The pool's ranking answers 304 too, and only a session being played polls its ranking;
each test plays its own tournament, apart from test_ranking_not_modified.py's shared one."""

import datetime
import random

import pytest
from django.urls import reverse

from tests.tournaments.results.public_pages import section_url
from tournaments.demo import play_rounds
from tournaments.services.results import publish
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db


def test_the_pool_ranking_is_conditional_too(client, members, movements, pairs, director):
    tournament = setup.create_tournament(name="Dos secciones", date=datetime.date(2025, 7, 1))
    session = tournament.sessions.get()
    entries = pairs(tournament, members[:24], 12)
    sections = []
    for letter, part in (("A", entries[:6]), ("B", entries[6:])):
        section = setup.add_section(session, letter, pool="A")
        setup.seat_section(section, movements.mitchell(3, 3, 2), part)
        sections.append(section)
    setup.start_session(session)
    for section in sections:
        play_rounds(section, random.Random(section.pk))
    publish.publish_provisional(tournament, user=director)
    url = reverse("results:pool", args=[tournament.slug, 1, "A"])
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    # the section's page is another page
    assert client.get(section_url(tournament), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_only_a_session_being_played_polls_its_ranking(
    client, mitchell_session, director, settings
):
    settings.LIVE_RANKING_POLL_SECONDS = 7
    play_rounds(mitchell_session, random.Random(2), rounds=2)
    tournament = mitchell_session.session.tournament
    publish.publish_provisional(tournament, user=director)
    url = section_url(tournament)
    live = client.get(url).content.decode()
    assert 'data-poll="7"' in live and 'hx-trigger="every 7s"' in live
    assert f'hx-get="{url}"' in live and 'hx-select="#live-ranking"' in live
    setup.finish_session(mitchell_session.session)
    done = client.get(url).content.decode()
    assert 'id="live-ranking"' in done and "data-poll" not in done and "every 7s" not in done

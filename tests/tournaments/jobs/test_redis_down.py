"""Redis down in the middle of a session: the site keeps working from the database.

The shared cache (sessions, windows, rendered rankings) answers like a miss, the broker
cannot take tasks; sign-in, a table's post, the live ranking and the director's console all
answer, the result is stored once, and the ranking follows it (classified in the page, as the
embedded site does). The outage is logged once, not once per request.
"""

import logging
import random
import uuid

import pytest
from django.core.cache import cache
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice
from kombu.exceptions import OperationalError

from clubsite.celery import app as celery_app
from clubsite.ops import logfilters
from tests.signed_in import app_code
from tournaments.demo import play_rounds
from tournaments.models import Result, Session, TableCode
from tournaments.services.classification import windows
from tournaments.services.results import publish
from tournaments.tasks import classify_session_task
from tournaments.views.table.device import SESSION_KEY

pytestmark = pytest.mark.django_db

DEAD_REDIS = "redis://127.0.0.1:1/1"  # nothing listens there: every call is refused


@pytest.fixture
def redis_down(settings, monkeypatch):
    """The production set-up (django-redis cache, cached_db sessions, a broker) with Redis
    gone: the cache refuses every connection and so does the broker."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": DEAD_REDIS,
            "OPTIONS": {
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 0.2,
                "SOCKET_TIMEOUT": 0.2,
            },
        }
    }
    settings.DJANGO_REDIS_IGNORE_EXCEPTIONS = True
    settings.DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
    settings.DJANGO_REDIS_LOGGER = "clubsite.cache"
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    settings.RANKING_REFRESH_SECONDS = 5
    celery_app.conf.task_always_eager = False  # the autouse _celery_mode fixture restores it
    attempts = []

    def refused(*args, **kwargs):
        attempts.append(args)
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(classify_session_task, "apply_async", refused)
    monkeypatch.setattr(windows, "_broker_down_until", 0.0)
    monkeypatch.setattr(windows, "_local_windows", {})
    monkeypatch.setattr(logfilters, "_logged", {})
    return attempts


@pytest.fixture
def running(mitchell_session):
    play_rounds(mitchell_session, random.Random(3), rounds=2)
    publish.publish_provisional(mitchell_session.session.tournament, user=None)
    return mitchell_session


def device(client, section, table):
    session = client.session
    session[SESSION_KEY] = TableCode.objects.get(section=section, table=table, active=True).pk
    session.save()
    return client


def post(client, round_, board, key):
    return client.post(
        reverse("table:result"),
        {
            "round": round_,
            "board": board,
            "level": "3",
            "strain": "NT",
            "double": "",
            "declarer": "N",
            "made": "=",
            "lead_suit": "",
            "lead_rank": "",
            "idempotency_key": key,
        },
        HTTP_ACCEPT="application/json",
    )


def test_the_cache_answers_like_a_miss(redis_down):
    assert cache.get("anything") is None
    assert cache.add("a-key", 1) is None  # neither True nor False: the cache is down


def test_staff_sign_in_and_open_their_pages(redis_down, client, director, running):
    response = client.post(
        reverse("login"), {"username": director.username, "password": "pass-1234-word"}
    )
    assert response.status_code == 302
    device = TOTPDevice.objects.create(user=director, name="phone", confirmed=True)
    second = client.post(reverse("two_factor_verify"), {"code": app_code(device)})
    assert second.status_code == 302  # the second step needs no cache either
    assert client.get(reverse("director:console", args=[running.session_id])).status_code == 200
    assert client.get(reverse("director:index")).status_code == 200


def test_tables_post_and_the_ranking_follows(
    redis_down, client, running, caplog, django_capture_on_commit_callbacks
):
    section = running
    slots = [(t["table"], b) for t in section.movement["rounds"][2]["tables"] for b in t["boards"]]
    before = Session.objects.get(pk=section.session_id).ranking_version
    caplog.set_level(logging.WARNING)
    keys = []
    for table, board in slots[:6]:
        key = uuid.uuid4().hex
        keys.append(key)
        with django_capture_on_commit_callbacks(execute=True):
            response = post(device(client, section, table), 3, board, key)
        assert response.status_code == 201 and response.json()["outcome"] == "created"
    # The device did not hear the answer and sends the last one again: stored once.
    again = post(client, 3, slots[5][1], keys[-1])
    assert again.status_code == 200 and again.json()["outcome"] == "duplicate"
    assert Result.objects.filter(idempotency_key__in=keys).count() == 6
    # Forty tables do not each wait for a dead broker: it is asked once, then left alone.
    assert len(redis_down) == 1
    # The live ranking is classified in the page, from the database.
    url = reverse(
        "results:section",
        args=[section.session.tournament.slug, section.session.number, section.letter],
    )
    assert client.get(url).status_code == 200
    windows._broker_down_until = 0.0  # the pause is over; the broker is still down
    page = client.get(url)
    assert page.status_code == 200
    assert Session.objects.get(pk=section.session_id).ranking_version > before
    assert caplog.text.count("could not queue") == 1


def test_the_documented_settings_survive_a_dead_cache(tmp_path):
    """CACHE_URL as the README documents it, with nothing listening: the configured cache
    answers every call like a miss instead of raising."""
    import os
    import subprocess
    import sys

    from django.conf import settings

    code = (
        "import django; django.setup()\n"
        "from django.core.cache import cache\n"
        "assert cache.get('k') is None\n"
        "cache.set('k', 1); cache.delete('k')\n"
        "assert cache.add('k', 1) is None\n"
        "print('ok')\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "clubsite.settings",
        "CACHE_URL": DEAD_REDIS,
        "CLUBSITE_VAR_DIR": str(tmp_path),
    }
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"

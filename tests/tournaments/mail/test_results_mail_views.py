"""The director's results-mail page through HTTP: the preview sends nothing, the button sends
once, bad or stale posts are answered by a clear message.

The demo club's Tuesday tournament is built once for the module (tests/module_rows.py), each
test in a savepoint of it; the player's choices and the waiting-list notice, which start from
an empty club, are in test_player_mail_choices.py and test_waiting_list_mail.py."""

import pytest
from django.core import mail
from django.urls import reverse

from tests.module_rows import module_rows
from tests.tournaments.conftest import build_demo_events
from tournaments.models import PlayerMail, ResultsMailing, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def _martes_rows(django_db_setup, django_db_blocker):
    with module_rows(django_db_blocker):
        build_demo_events("martes")
        yield


@pytest.fixture
def final(_martes_rows, db):
    """The demo's Tuesday tournament, final, read afresh."""
    return Tournament.objects.get(status="final")


def mail_link_state(client, tournament):
    page = client.get(reverse("director:tournament", args=[tournament.pk])).content.decode()
    return page.split('id="results-mail-link" data-state="')[1].split('"')[0]


def test_the_director_previews_then_sends_once(
    final, director_client, django_capture_on_commit_callbacks
):
    assert mail_link_state(director_client, final) == "unsent"
    url = reverse("director:results_mail", args=[final.pk])
    page = director_client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and mail.outbox == []
    drafts = page.context["preview"].drafts
    assert drafts and b'id="send-mails"' in page.content
    version = page.context["preview"].version
    send = reverse("director:results_mail_send", args=[final.pk])
    with django_capture_on_commit_callbacks(execute=True):
        answer = director_client.post(send, {"version": version})
    assert answer.status_code == 302 and len(mail.outbox) == len(drafts)
    with django_capture_on_commit_callbacks(execute=True):
        again = director_client.post(send, {"version": version}, follow=True)
    assert len(mail.outbox) == len(drafts) and ResultsMailing.objects.count() == 1
    assert "ya se enviaron" in again.content.decode()  # the refusal, in the club's language
    record = director_client.get(url)
    assert record.context["history"][0]["sent"] == len(drafts)
    assert mail_link_state(director_client, final) == "sent"
    from tournaments.models import Result
    from tournaments.services.running import corrections

    result = Result.objects.filter(section__session__tournament=final).order_by("pk").first()
    corrections.correct_result(
        result,
        user=None,
        contract="7NT",
        declarer="N",
        tricks=13,
        reason="Error de anotación",
        override=True,
    )
    assert mail_link_state(director_client, final) == "correction"


@pytest.mark.parametrize("version", ["", "1.9999", "x" * 500, "1\x00"])
def test_a_stale_or_garbled_version_sends_nothing_and_says_why(final, director_client, version):
    send = reverse("director:results_mail_send", args=[final.pk])
    answer = director_client.post(send, {"version": version}, follow=True)
    assert answer.status_code == 200 and mail.outbox == []
    assert not PlayerMail.objects.exists()
    assert "han cambiado desde esta vista previa" in answer.content.decode()


def test_provisional_results_are_not_offered_for_mail(final, director_client):
    final.status = "provisional"
    final.save(update_fields=["status"])
    page = director_client.get(reverse("director:results_mail", args=[final.pk]))
    assert page.status_code == 200 and b'id="mail-problem"' in page.content
    assert b'id="send-mails"' not in page.content

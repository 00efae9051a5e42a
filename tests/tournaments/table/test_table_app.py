"""The table page as an offline-first app, over HTTP: the service worker served with a scope
over /table/, the web manifest, the round's pages listed for the cache, the moves ready to
show while results wait on the device, and the opponents' tap answered in JSON for the queue.
(The browser side: tests/e2e/test_table_offline.py; the queue: tests/js/.)"""

import json

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.urls import reverse

from tests.tournaments.table.test_table_views import post_json, result_data, sign_in
from tournaments.models import Result

pytestmark = pytest.mark.django_db


def test_service_worker_is_served_under_table_with_its_scope(client):
    response = client.get("/table/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Service-Worker-Allowed"] == "/table/"
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    assert (
        f'importScripts("{static("tournaments/offline_queue.js")}", '
        f'"{static("tournaments/offline_send.js")}")'
    ) in body
    assert 'addEventListener("sync"' in body and 'addEventListener("fetch"' in body


def test_manifest_installs_the_round_page_in_the_devices_language(client):
    response = client.get(
        reverse("table:manifest"),
        HTTP_ACCEPT_LANGUAGE="es",
        headers={"Cookie": "django_language=es"},
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["start_url"] == reverse("table:home") and data["scope"] == "/table/"
    assert data["display"] == "standalone"
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    assert data["name"] == "Anotación de la mesa de bridge"
    for icon in data["icons"]:
        assert finders.find(icon["src"].removeprefix(static(""))), icon["src"]


def test_csp_allows_the_worker_and_the_manifest_from_the_site_only(client):
    policy = client.get(reverse("table:index"))["Content-Security-Policy"]
    assert "worker-src 'self'" in policy and "manifest-src 'self'" in policy
    assert "script-src 'self'" in policy


def test_round_page_links_the_manifest_and_lists_the_round_and_the_next_two_for_the_cache(
    client, mitchell_session
):
    sign_in(client, mitchell_session, 1)
    page = client.get(reverse("table:home"))
    html = page.content.decode()
    assert f'href="{reverse("table:manifest")}"' in html
    assert 'data-worker="/table/sw.js"' in html
    urls = page.context["offline_urls"]
    # Table 1 of the Mitchell plays boards 1-2 in round 1 and 3-4 in round 2.
    for url in (
        "/table/play/",
        "/table/play/?round=1",
        "/table/play/1/1/",
        "/table/play/1/2/",
        "/table/play/?round=2",
        "/table/play/2/3/",
        "/table/play/2/4/",
        "/table/play/?round=3",
        "/table/play/3/5/",
        "/table/play/3/6/",
        "/table/offline/",
        static("tournaments/table.js"),
        static("tournaments/offline_queue.js"),
    ):
        assert url in urls, url
    assert "/table/play/?round=4" not in urls
    for url in urls:
        assert client.get(url).status_code == 200, url  # every one can be fetched and kept


def test_moves_are_on_the_round_page_hidden_until_every_board_is_in(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    html = client.get(reverse("table:home")).content.decode()
    assert 'id="moves" hidden' in html and 'id="next-round"' in html
    for board in (1, 2):
        post_json(client, result_data(board=board))
    html = client.get(reverse("table:home") + "?round=1").content.decode()
    assert 'id="moves">' in html


def test_board_form_carries_the_offline_next_board_and_confirm(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    html = client.get(reverse("table:board", args=[1, 1])).content.decode()
    assert 'id="offline-nav" hidden' in html
    assert 'href="/table/play/1/2/"' in html
    assert 'id="offline-confirm" class="confirm-form" hidden' in html


def test_confirm_answers_json_for_the_queue_and_twice_is_harmless(client, mitchell_session):
    sign_in(client, mitchell_session, 1)
    pk = post_json(client, result_data(board=1)).json()["result"]
    url = reverse("table:confirm", args=[pk])
    for _ in range(2):
        answer = client.post(url, HTTP_ACCEPT="application/json")
        assert answer.status_code == 200
        assert answer.json() == {
            "confirmed": True,
            "result": pk,
            "url": reverse("table:board", args=[1, 1]),
        }
    assert Result.objects.get().confirmed
    # Without JavaScript the form still lands on the board.
    assert client.post(url)["Location"] == reverse("table:board", args=[1, 1])

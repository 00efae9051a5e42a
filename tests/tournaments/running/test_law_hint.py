"""The adjusted-score form's law hint follows what is typed (issue #35, finding 5: after
typing 12C2 the hint still showed 12C1, the page's default)."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def laws(db):
    from laws.importer import parse_all
    from laws.services import store

    store(parse_all())


def test_the_law_field_asks_for_the_hint_as_it_is_typed(director_client, mitchell_session, laws):
    url = reverse("director:line", args=[mitchell_session.pk, 1, 1, 2])
    html = director_client.get(url).content.decode()
    form = html.split('id="adjust-form"')[1].split("</form>")[0]
    field = re.search(r'<input[^>]*name="law"[^>]*>', form).group(0)
    assert f'hx-get="{reverse("director:law_hint")}"' in field
    assert 'hx-target="#law-hint"' in field and "input changed" in field
    # an artificial score (the form's first kind) is Law 12C2a in the 2017 Laws
    assert 'value="12C2a"' in field and "<script" not in form  # no inline script (CSP)
    hint = form.split('id="law-hint"')[1].split("</span>")[0]
    assert re.search(r'href="/laws/es-2017/12/#C2a"', hint), hint
    kinds = re.search(r'<select[^>]*name="kind"[^>]*>', form).group(0)
    assert "data-kind-laws" in kinds and "12C1c" in kinds  # the law each kind starts with


def test_the_hint_follows_the_citation(director_client, laws):
    url = reverse("director:law_hint")
    hint = director_client.get(url, {"law": "12C2"}).content.decode()
    assert 'id="law-hint"' in hint
    assert 'href="/laws/es-2017/12/#C2"' in hint and "12C2" in hint and "12C1" not in hint
    hint = director_client.get(url, {"law": "12C1"}).content.decode()
    assert 'href="/laws/es-2017/12/#C1"' in hint
    # what cites no law clears the hint rather than keeping the last one
    for typed in ("", "12C", "xyz"):
        hint = director_client.get(url, {"law": typed}).content.decode()
        if typed == "12C":
            continue  # "12C" is Law 12C itself
        assert "law-link" not in hint, typed


def test_the_hint_is_the_directors(player_client):
    assert player_client.get(reverse("director:law_hint"), {"law": "12C2"}).status_code == 403

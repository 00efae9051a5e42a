"""The hand-chosen movement offers only what the field can play, refuses in the director's
language, and the advice offers shorter evenings too (issue #35, finding 2)."""

import datetime

import pytest
from django.urls import reverse

from tournaments.models import Entry, Seating
from tournaments.services.errors import TournamentError
from tournaments.services.setup import advice
from tournaments.services.setup import events as setup
from tournaments.services.setup import movements as section_movements

pytestmark = pytest.mark.django_db


@pytest.fixture
def section_of(members, pairs):
    def make(count):
        tournament = setup.create_tournament(name="Lunes", date=datetime.date(2025, 3, 3))
        pairs(tournament, members, count)
        section = setup.add_section(tournament.sessions.get())
        entries = [e.pk for e in Entry.objects.filter(tournament=tournament)]
        return section, entries

    return make


def _manual_initial(response) -> dict:
    form = response.context["manual"]
    return {name: form[name].value() for name in form.fields}


def test_eight_pairs_default_is_a_playable_mitchell(director_client, section_of):
    section, entries = section_of(8)
    url = reverse("director:movement", args=[section.pk])
    initial = _manual_initial(director_client.get(url))
    assert (initial["kind"], initial["tables"], initial["rounds"]) == ("mitchell", 4, 3)
    # The form's own defaults are accepted as they are.
    response = director_client.post(url, {"action": "manual", "entries": entries, **initial})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Seating.objects.filter(section=section).count() == 8


@pytest.mark.parametrize(
    ("count", "kinds", "rounds"),
    [
        (4, ["howell"], 3),
        (6, ["mitchell", "howell"], 3),
        (10, ["mitchell", "howell"], 5),
        (14, ["mitchell", "howell"], 7),
    ],
)
def test_only_playable_kinds_and_rounds_are_offered(
    director_client, section_of, count, kinds, rounds
):
    section, _entries = section_of(count)
    response = director_client.get(reverse("director:movement", args=[section.pk]))
    form = response.context["manual"]
    assert [k for k, _label in form.fields["kind"].choices] == kinds
    assert _manual_initial(response)["rounds"] == rounds


def test_refusal_is_in_the_directors_language(director_client, section_of):
    section, entries = section_of(8)
    url = reverse("director:movement", args=[section.pk])
    response = director_client.post(
        url,
        {
            "action": "manual",
            "kind": "mitchell",
            "tables": "4",
            "rounds": "4",
            "boards_per_round": "2",
            "entries": entries,
        },
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Un Mitchell de 4 mesas juega de 1 a 3 rondas" in html
    assert "even=" not in html and "can play" not in html
    assert 'value="4"' in html  # what was typed is kept
    assert not Seating.objects.exists()


def test_core_refusal_never_shows_the_developer_message(db):
    with pytest.raises(TournamentError) as caught:
        section_movements.build_movement(
            "mitchell", tables=4, rounds=4, boards_per_round=1, even="twin"
        )
    assert "twin" not in str(caught.value.message)
    with pytest.raises(TournamentError) as caught:
        section_movements.build_movement("howell", tables=4, rounds=9, pairs=8)
    assert "7" in str(caught.value.message) and "pairs - 1" not in str(caught.value.message)


def test_advice_for_eight_pairs_offers_shorter_evenings(director_client, section_of):
    found = advice.suggestions(8)
    course = [s for s, shorter in found if not shorter]
    short = [s for s, shorter in found if shorter]
    assert course and all(22 <= s.boards <= 30 for s in course)
    assert short and all(s.boards < 22 for s in short)
    assert min(s.minutes for s in short) < 150
    section, entries = section_of(8)
    url = reverse("director:movement", args=[section.pk])
    html = director_client.get(url).content.decode()
    assert 'id="shorter-evenings"' in html and "Sesiones más cortas" in html
    index = next(i for i, (s, shorter) in enumerate(found) if shorter and s.kind == "howell")
    response = director_client.post(url, {"suggestion": str(index), "entries": entries})
    assert response.status_code == 302
    section.refresh_from_db()
    assert section.movement["kind"] == "howell"

"""Seat and line words built in Python follow the reader's language (issue #35): the
director's declarer choices, the table device's traveller and the seating messages write
O and EO in Spanish and Portuguese, W and EW in English, while the posted and stored codes
stay N/E/S/W and NS/EW."""

import datetime

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import translation

from tournaments.forms.adjustments import AdjustmentForm
from tournaments.forms.results import ResultForm
from tournaments.models import Board, Seating
from tournaments.services.entries import registration
from tournaments.services.setup import events as setup
from tournaments.services.setup import movements as section_movements
from tournaments.services.table import entry, table_round

pytestmark = pytest.mark.django_db

WEST = {"es": ("O", "EO"), "pt": ("O", "EO"), "en": ("W", "EW")}


@pytest.mark.parametrize("language", ["es", "pt", "en"])
def test_the_declarer_choices_are_the_languages_seats(language):
    west = WEST[language][0]
    with translation.override(language):
        result = ResultForm()
        adjusted = AdjustmentForm()
        labels = [str(label) for _code, label in result.fields["declarer"].choices]
        assert labels == ["—", "N", "E", "S", west]
        assert [str(label) for _code, label in adjusted.fields["w1_declarer"].choices] == labels
        assert f'<option value="W">{west}</option>' in str(result["declarer"])
    assert [code for code, _label in result.fields["declarer"].choices] == ["", *"NESW"]


@pytest.mark.parametrize("language", ["es", "pt", "en"])
def test_the_table_traveller_writes_the_languages_line(mitchell_session, director, language):
    entry.submit_result(
        user=director,
        section=mitchell_session,
        table=1,
        round=1,
        board=1,
        contract="3NT",
        declarer="S",
        tricks=9,
        idempotency_key="t1",
    )
    board = Board.objects.get(session=mitchell_session.session, number=1)
    with translation.override(language):
        rows, _top = table_round.traveller(board)
    assert [(r["ns_label"], r["ew_label"]) for r in rows] == [("1NS", f"1{WEST[language][1]}")]


def _mitchell_with_a_late_pair(members, pairs):
    tournament = setup.create_tournament(name="Tarde", date=datetime.date(2025, 1, 2))
    entries = pairs(tournament, members, 13)
    section = setup.add_section(tournament.sessions.get())
    setup.seat_section(
        section,
        section_movements.build_movement(
            "mitchell", tables=7, rounds=7, boards_per_round=2, pairs=14
        ),
        entries,
    )
    return section, registration.register_entry(tournament, members[40:42])


@pytest.mark.parametrize("language", ["es", "pt", "en"])
def test_the_late_pair_is_seated_in_the_languages_line(
    director_client, members, pairs, settings, language
):
    section, late = _mitchell_with_a_late_pair(members, pairs)
    director_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = director_client.post(
        reverse("director:late_entry", args=[section.pk]), {"entry": late.pk, "place": ""}
    )
    assert Seating.objects.get(entry=late).label == "7EW"  # stored as codes
    told = [str(m) for m in get_messages(response.wsgi_request)]
    assert any(m.endswith(f" 7{WEST[language][1]}.") for m in told), told


@pytest.mark.parametrize("language", ["es", "pt", "en"])
def test_two_pairs_on_one_place_are_named_in_the_languages_line(
    director_client, members, pairs, settings, language
):
    section, _late = _mitchell_with_a_late_pair(members, pairs)
    seats = {(s.number, s.direction): s.entry_id for s in Seating.objects.filter(section=section)}
    data = {f"place-{e}": f"{n}:{line}" for (n, line), e in seats.items()}
    data[f"place-{seats[(2, 'EW')]}"] = "1:EW"
    director_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = director_client.post(reverse("director:seating", args=[section.pk]), data)
    told = [str(m) for m in get_messages(response.wsgi_request)]
    assert any(f" 1{WEST[language][1]}." in m for m in told), told

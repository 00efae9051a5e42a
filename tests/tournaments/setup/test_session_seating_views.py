"""The director's "seat this session from the previous one" page: only directors, a preview
that shows every pair's section, table and line, a confirmation that seats through the
services, and refusals that keep the form and change nothing."""

import re

import pytest
from django.urls import reverse

from tests.tournaments.support.multisession import make_event, play
from tournaments.models import Seating
from tournaments.services.entries import registration
from tournaments.services.setup import plan
from tournaments.services.setup import seating as session_seating

pytestmark = pytest.mark.django_db


@pytest.fixture
def second_session(members, pairs):
    """Session 1 (two 3-table Mitchells, 12 pairs) played and finished; session 2 empty."""
    tournament, _entries = make_event(members, pairs, sessions=2, sections=2, tables=3)
    play(tournament.sessions.get(number=1))
    return tournament.sessions.get(number=2)


def _url(session):
    return reverse("director:seat_from_previous", args=[session.pk])


def test_only_directors(player_client, client, second_session):
    assert player_client.get(_url(second_session)).status_code == 403
    assert (
        player_client.post(
            _url(second_session), {"method": "same", "action": "preview"}
        ).status_code
        == 403
    )
    assert not Seating.objects.filter(session=second_session).exists()
    client.logout()
    assert client.get(_url(second_session)).status_code in (302, 403)


def test_session_page_offers_it_for_later_sessions_only(director_client, second_session):
    page = director_client.get(reverse("director:session", args=[second_session.pk]))
    assert b'id="seat-from-previous"' in page.content
    first = second_session.tournament.sessions.get(number=1)
    page = director_client.get(reverse("director:session", args=[first.pk]))
    assert b'id="seat-from-previous"' not in page.content


def test_preview_then_confirm(director_client, second_session):
    page = director_client.get(_url(second_session))
    assert page.status_code == 200
    assert page.content.count(b'name="method"') == 3
    preview = director_client.post(_url(second_session), {"method": "pools", "action": "preview"})
    assert preview.status_code == 200
    assert not Seating.objects.filter(session=second_session).exists()  # a preview writes nothing
    planned = preview.context["plan"]
    html = preview.content.decode()
    assert 'id="preview-A"' in html and 'id="preview-B"' in html
    for section in planned.sections:
        for seat in section.seats:
            assert f'data-entry="{seat.entry.pk}" data-place="{seat.label}"' in html
    assert html.count('class="seat"') == 12
    confirm = director_client.post(
        _url(second_session),
        {"method": "pools", "action": "confirm", "fingerprint": planned.fingerprint},
    )
    assert confirm.status_code == 302
    assert confirm["Location"] == reverse("director:session", args=[second_session.pk])
    got = {
        (s.entry_id, s.section.letter, s.number, s.direction)
        for s in Seating.objects.filter(session=second_session).select_related("section")
    }
    assert got == {
        (s.entry.pk, p.letter, s.number, s.direction) for p in planned.sections for s in p.seats
    }


def test_confirm_refused_when_the_field_changed_since_the_preview(
    director_client, second_session, members, director
):
    preview = director_client.post(
        _url(second_session), {"method": "serpentine", "action": "preview"}
    )
    fingerprint = preview.context["plan"].fingerprint
    entry = second_session.tournament.entries.first()
    registration.withdraw_entry(entry, user=director, reason="enfermedad")
    refused = director_client.post(
        _url(second_session),
        {"method": "serpentine", "action": "confirm", "fingerprint": fingerprint},
    )
    assert refused.status_code == 400
    assert refused.context["form"].errors
    assert b'id="seating-refused"' in refused.content
    html = refused.content.decode()
    (radio,) = re.findall(r'<input type="radio"[^>]*value="serpentine"[^>]*>', html)
    assert "checked" in radio
    assert not Seating.objects.filter(session=second_session).exists()
    # the new preview leaves the withdrawn pair out
    again = director_client.post(
        _url(second_session), {"method": "serpentine", "action": "preview"}
    )
    assert again.context["plan"].withdrawn == [entry]


def test_refusals_keep_the_form(director_client, members, pairs):
    tournament, _entries = make_event(members, pairs, sessions=2, sections=1, tables=3)
    second = tournament.sessions.get(number=2)
    # session 1 not finished
    refused = director_client.post(_url(second), {"method": "same", "action": "preview"})
    assert refused.status_code == 400 and b'id="seating-refused"' in refused.content
    assert refused.context["form"]["method"].value() == "same"
    play(tournament.sessions.get(number=1))
    # one section: no pools to rotate; six pairs: too few for a serpentine
    for method in ("pools", "serpentine"):
        refused = director_client.post(_url(second), {"method": method, "action": "preview"})
        assert refused.status_code == 400, method
        assert refused.context["form"]["method"].value() == method
        assert refused.context["plan"] is None
    # no method chosen
    assert director_client.post(_url(second), {"action": "preview"}).status_code == 400
    assert not Seating.objects.filter(session=second).exists()
    # keeping the seating works for this field
    ok = director_client.post(_url(second), {"method": "same", "action": "preview"})
    assert ok.status_code == 200
    fingerprint = session_seating.plan_seating(second, "same").fingerprint
    assert ok.context["plan"].fingerprint == fingerprint


def test_changing_the_rounds_keeps_the_serpentine_places(director_client, members, pairs, director):
    """19 pairs: the serpentine's relay is at table 6 NS (C03's R); another number of rounds
    must keep every pair where the serpentine put it, and the relay there."""
    tournament, _entries = make_event(
        members, pairs, sessions=2, sections=1, tables=10, rounds=3, boards=1, count=19
    )
    play(tournament.sessions.get(number=1))
    second = tournament.sessions.get(number=2)
    planned = session_seating.plan_seating(second, "serpentine")
    session_seating.apply_seating(planned, user=director)
    section = second.sections.get()
    before = set(
        Seating.objects.filter(section=section).values_list("entry_id", "number", "direction")
    )
    response = director_client.post(
        reverse("director:change_rounds", args=[section.pk]), {"rounds": 5, "reason": "más tiempo"}
    )
    assert response.status_code == 302
    section.refresh_from_db()
    assert plan.round_count(section.movement) == 5
    assert plan.is_phantom(section.movement, 6, "NS")
    assert (
        set(Seating.objects.filter(section=section).values_list("entry_id", "number", "direction"))
        == before
    )

"""Table mode with the director: a table's "Call the director" shows on the live console with
the table and the time and clears when the director answers it; leaving table mode takes the
session's PIN (or a director signed in on the device)."""

from django.test import Client
from django.urls import reverse

from tests.signed_in import sign_in_verified
from tournaments.models import DirectorCall, TableCode
from tournaments.services.setup import events as setup
from tournaments.services.table import director_calls
from tournaments.views.table.device import SESSION_KEY


def device(section, table: int = 1) -> Client:
    code = TableCode.objects.get(section=section, table=table, active=True)
    client = Client()
    client.post(reverse("table:index"), {"table": code.label, "code": code.code})
    assert client.session[SESSION_KEY] == code.pk
    return client


def test_a_call_shows_on_the_console_until_the_director_answers(mitchell_session, director):
    session = mitchell_session.session
    phone, tablet = device(mitchell_session, 3), device(mitchell_session, 3)
    page = phone.get(reverse("table:home")).content.decode()
    assert 'id="call-director"' in page and 'id="director-called"' not in page
    answer = phone.post(reverse("table:call"), {"next": reverse("table:home")})
    assert answer.status_code == 302 and answer["Location"] == reverse("table:home")
    # a second tap, or the table's other device: the same call
    tablet.post(reverse("table:call"), HTTP_HX_REQUEST="true")
    assert DirectorCall.objects.count() == 1
    call = DirectorCall.objects.get()
    assert (call.section_id, call.table, call.is_open) == (mitchell_session.pk, 3, True)
    shown = tablet.get(reverse("table:home")).content.decode()
    assert 'id="director-called"' in shown and 'id="call-director"' not in shown
    staff = Client()
    sign_in_verified(staff, director)
    console = staff.get(reverse("director:console", args=[session.pk])).content.decode()
    assert 'id="director-calls"' in console and 'data-table="A3"' in console
    assert reverse("director:answer_call", args=[call.pk]) in console
    staff.post(reverse("director:answer_call", args=[call.pk]))
    call.refresh_from_db()
    assert not call.is_open and call.answered_by == director
    assert (
        'id="director-calls"'
        not in staff.get(reverse("director:console", args=[session.pk])).content.decode()
    )
    # the table's screen asks again while a call is open: it clears
    state = phone.get(reverse("table:call"), HTTP_HX_REQUEST="true").content.decode()
    assert 'id="call-director"' in state and 'data-state="none"' in state
    # answered, the table may call again: a new call
    phone.post(reverse("table:call"))
    assert DirectorCall.objects.filter(answered_at=None).count() == 1


def test_another_tables_call_is_its_own(mitchell_session):
    device(mitchell_session, 1).post(reverse("table:call"))
    device(mitchell_session, 2).post(reverse("table:call"))
    assert sorted(c.table for c in director_calls.open_calls(mitchell_session.session)) == [1, 2]


def test_a_session_not_in_play_takes_no_call(mitchell_session, director):
    phone = device(mitchell_session, 1)
    setup.finish_session(mitchell_session.session, user=director)
    assert phone.post(reverse("table:call")).status_code in (302, 403)
    assert DirectorCall.objects.count() == 0


def test_leaving_table_mode_takes_the_pin(mitchell_session, director):
    session = mitchell_session.session
    session.refresh_from_db()
    pin = session.table_pin
    assert len(pin) == 4 and pin.isdigit()  # every session gets one
    phone = device(mitchell_session)
    home = phone.get(reverse("table:home")).content.decode()
    assert 'id="leave-pin"' in home
    refused = phone.post(reverse("table:leave"), {"pin": "x" + pin}, follow=True)
    assert phone.session[SESSION_KEY]
    assert refused.redirect_chain[-1][0] == reverse("table:home")
    assert "PIN" in refused.content.decode()
    assert phone.post(reverse("table:leave"), {"pin": pin})["Location"] == reverse("table:index")
    assert SESSION_KEY not in phone.session
    page = phone.get(reverse("table:index")).content.decode()
    assert 'data-forget="1"' in page  # the pages kept offline are forgotten, once
    assert 'data-forget="1"' not in phone.get(reverse("table:index")).content.decode()
    # a director signed in on the device needs none
    tablet = device(mitchell_session, 2)
    sign_in_verified(tablet, director)
    tablet.post(reverse("table:leave"))
    assert SESSION_KEY not in tablet.session


def test_the_director_sets_or_clears_the_pin(mitchell_session, director):
    session = mitchell_session.session
    staff = Client()
    sign_in_verified(staff, director)
    url = reverse("director:table_pin", args=[session.pk])
    staff.post(url, {"table_pin": "12"})  # too short: refused, the PIN stays
    session.refresh_from_db()
    assert len(session.table_pin) == 4
    staff.post(url, {"table_pin": "246810"})
    session.refresh_from_db()
    assert session.table_pin == "246810"
    console = staff.get(reverse("director:console", args=[session.pk])).content.decode()
    assert 'value="246810"' in console
    staff.post(url, {"table_pin": ""})  # no PIN: any device may leave
    phone = device(mitchell_session)
    assert 'id="leave-pin"' not in phone.get(reverse("table:home")).content.decode()
    phone.post(reverse("table:leave"))
    assert SESSION_KEY not in phone.session

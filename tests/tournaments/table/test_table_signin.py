"""Signing a table in, without HTTP: the link token, the code with its table, the throttle.

Tonight's running Mitchell is built once for the module (tests/module_rows.py), each test in
a savepoint of it."""

import logging
import math
import string

import pytest
from django.core.cache import cache

from clubsite.tenancy import current_club_id
from tests.tournaments.conftest import shared_mitchell
from tournaments.models import TableCode
from tournaments.services.errors import NotAllowed
from tournaments.services.setup import events as setup
from tournaments.services.table import table_signin
from tournaments.services.table.table_signin import Attempt, Device, TooManyAttempts

pytestmark = pytest.mark.django_db

IP = "192.0.2.7"
URL_SAFE = set(string.ascii_letters + string.digits + "-_")


members, mitchell_session = shared_mitchell()


def code(section, table):
    return TableCode.objects.get(section=section, table=table, active=True)


@pytest.fixture
def limits(settings):
    settings.TABLE_SIGNIN_MAX_FAILURES = 3
    settings.TABLE_SIGNIN_MAX_FAILURES_PER_ADDRESS = 6
    settings.TABLE_SIGNIN_WINDOW_SECONDS = 600
    return settings


# --- the token ------------------------------------------------------------------------------


def test_every_table_has_a_token_of_at_least_64_random_bits(mitchell_session):
    tokens = [c.token for c in TableCode.objects.filter(section=mitchell_session)]
    assert len(tokens) == 7 and len(set(tokens)) == 7
    for token in tokens:
        assert set(token) <= URL_SAFE
        # 6 bits a URL-safe character: 22 characters hold 128 bits (at least 64 asked)
        assert len(token) * math.log2(len(URL_SAFE)) >= 128
    assert all(t not in {c.code for c in TableCode.objects.all()} for t in tokens)


def test_a_replaced_code_gets_a_new_token_and_code(mitchell_session):
    old = code(mitchell_session, 1)
    new = setup.replace_table_code(old)
    assert new.token != old.token and new.code != old.code
    assert table_signin.table_for_token(old.token) is None
    with pytest.raises(NotAllowed):
        table_signin.sign_in_with_token(old.token, ip=IP)
    assert table_signin.sign_in_with_token(new.token, ip=IP) == new


def test_the_token_signs_in_only_while_the_session_runs(mitchell_session):
    table_code = code(mitchell_session, 4)
    assert table_signin.sign_in_with_token(table_code.token, ip=IP) == table_code
    setup.finish_session(mitchell_session.session)
    with pytest.raises(NotAllowed):
        table_signin.sign_in_with_token(table_code.token, ip=IP)


# --- the short code -------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["A4", "a4", " A 4 ", "a-4", "4"])
def test_the_code_signs_in_with_its_table_however_typed(mitchell_session, typed):
    table_code = code(mitchell_session, 4)
    assert table_signin.sign_in_with_code(typed, table_code.code.lower(), ip=IP) == table_code


@pytest.mark.parametrize("typed", ["", "A", "A3", "B4", "A0", "44A", "A4;"])
def test_the_code_is_refused_without_its_own_table(mitchell_session, typed):
    table_code = code(mitchell_session, 4)
    with pytest.raises(NotAllowed) as refused:
        table_signin.sign_in_with_code(typed, table_code.code, ip=IP)
    assert not isinstance(refused.value, TooManyAttempts)


def test_a_code_of_a_finished_session_is_refused(mitchell_session):
    table_code = code(mitchell_session, 2)
    setup.finish_session(mitchell_session.session)
    with pytest.raises(NotAllowed):
        table_signin.sign_in_with_code("A2", table_code.code, ip=IP)


def test_a_code_of_a_session_not_started_is_refused(mitchell_session):
    from tournaments.models import SessionStatus

    table_code = code(mitchell_session, 2)
    mitchell_session.session.status = SessionStatus.DRAFT
    mitchell_session.session.save(update_fields=["status"])
    with pytest.raises(NotAllowed):
        table_signin.sign_in_with_code("A2", table_code.code, ip=IP)
    with pytest.raises(NotAllowed):
        table_signin.sign_in_with_token(table_code.token, ip=IP)


def test_a_fresh_code_differs_from_the_live_codes_of_tables_of_the_same_name(
    mitchell_session, monkeypatch
):
    """A3 of another tournament never gets the code A3 has now, so the pair names one table."""
    taken = code(mitchell_session, 3).code
    other = setup.create_tournament(name="Otro", date=mitchell_session.session.tournament.date)
    section = setup.add_section(other.sessions.get())
    section.tables = 3
    section.save(update_fields=["tables"])
    draws = iter(["AAAAA", "CCCCC", taken, "DDDDD"])
    monkeypatch.setattr(setup, "new_code", lambda: next(draws))
    codes = {c.table: c.code for c in setup.issue_table_codes(section)}
    assert codes == {1: "AAAAA", 2: "CCCCC", 3: "DDDDD"}


# --- the throttle ---------------------------------------------------------------------------


def fail(table="A1", ip=IP, n=1):
    for _ in range(n):
        with pytest.raises(NotAllowed):
            table_signin.sign_in_with_code(table, "ZZZZZ", ip=ip)


def test_failures_from_one_address_are_throttled(mitchell_session, limits):
    fail("A2", n=2)
    fail("A3", n=2)
    fail("A4", n=2)
    with pytest.raises(TooManyAttempts) as throttled:
        table_signin.sign_in_with_code("A5", code(mitchell_session, 5).code, ip=IP)
    assert 590 <= throttled.value.wait_seconds <= 600
    assert "10" in str(throttled.value) and not throttled.value.table_locked
    # another address is not held up
    assert table_signin.sign_in_with_code(
        "A5", code(mitchell_session, 5).code, ip="198.51.100.1"
    ) == code(mitchell_session, 5)


def test_failures_for_one_table_are_throttled_from_any_address(mitchell_session, limits):
    for i in range(3):
        fail("a-6", ip=f"10.0.0.{i}")
    with pytest.raises(TooManyAttempts) as throttled:
        table_signin.sign_in_with_code("A6", code(mitchell_session, 6).code, ip="10.0.0.99")
    assert throttled.value.table_locked and "QR" in str(throttled.value)
    # the table's link still works, and so do the other tables
    assert table_signin.sign_in_with_token(code(mitchell_session, 6).token, ip="10.0.0.99")
    assert table_signin.sign_in_with_code("A7", code(mitchell_session, 7).code, ip="10.0.0.1")


def test_bad_link_tokens_count_against_the_address(mitchell_session, limits):
    for _ in range(6):
        with pytest.raises(NotAllowed):
            table_signin.sign_in_with_token("not-a-token", ip=IP)
    with pytest.raises(TooManyAttempts):
        table_signin.sign_in_with_token("still-not-a-token", ip=IP)
    with pytest.raises(TooManyAttempts):
        table_signin.sign_in_with_code("A1", code(mitchell_session, 1).code, ip=IP)


def test_successes_do_not_count(mitchell_session, limits):
    table_code = code(mitchell_session, 1)
    for _ in range(10):
        assert table_signin.sign_in_with_code("A1", table_code.code, ip=IP) == table_code
    fail("A1", n=2)
    assert table_signin.sign_in_with_code("A2", code(mitchell_session, 2).code, ip=IP)


def test_the_window_ends(mitchell_session, limits, monkeypatch):
    clock = [1_000_000.0]
    monkeypatch.setattr(table_signin.time, "time", lambda: clock[0])
    fail(n=3)
    assert table_signin.wait_seconds(Attempt(IP, "A1")) == 600
    clock[0] += 540
    assert table_signin.wait_seconds(Attempt(IP, "A1")) == 60
    cache.delete_many(
        [
            f"table-signin:ip:{IP}",
            f"table-signin:ip:{IP}:until",
            f"table-signin:table:{current_club_id()}:A1",
            f"table-signin:table:{current_club_id()}:A1:until",
        ]
    )  # expired
    assert table_signin.wait_seconds(Attempt(IP, "A1")) == 0


def known_at(table_code, device_id="phone-1"):
    return Device(device_id, frozenset({Device.table_key(table_code)}))


def test_a_device_that_signed_in_at_a_table_is_not_locked_out_by_others_wrong_codes(
    mitchell_session, limits
):
    table_code = code(mitchell_session, 6)
    for i in range(3):
        fail("A6", ip=f"10.0.0.{i}")  # a guesser, or three phones with a typo
    with pytest.raises(TooManyAttempts):  # a device new to A6 is told to scan the card
        table_signin.sign_in_with_code(
            "A6", table_code.code, ip="10.0.0.99", device=Device("new-phone")
        )
    assert (
        table_signin.sign_in_with_code(
            "A6", table_code.code, ip="10.0.0.1", device=known_at(table_code)
        )
        == table_code
    )


def test_a_known_devices_own_wrong_codes_count_against_it_alone(mitchell_session, limits):
    table_code = code(mitchell_session, 6)
    mine = known_at(table_code)
    for _ in range(3):
        with pytest.raises(NotAllowed):
            table_signin.sign_in_with_code("A6", "ZZZZZ", ip=IP, device=mine)
    with pytest.raises(TooManyAttempts):
        table_signin.sign_in_with_code("A6", table_code.code, ip=IP, device=mine)
    # the table and the address are not locked by it: another device signs in
    assert (
        table_signin.sign_in_with_code(
            "A6", table_code.code, ip=IP, device=known_at(table_code, "phone-2")
        )
        == table_code
    )
    assert table_signin.sign_in_with_code("A6", table_code.code, ip=IP) == table_code


def test_typos_across_the_room_do_not_lock_the_clubs_wifi(mitchell_session, settings):
    settings.TABLE_SIGNIN_MAX_FAILURES = 10  # as configured by default
    settings.TABLE_SIGNIN_MAX_FAILURES_PER_ADDRESS = 50
    for table in range(1, 8):  # two typos at each of the seven tables, one shared address
        fail(f"A{table}", n=2)
    for table in range(1, 8):
        assert table_signin.sign_in_with_code(
            f"A{table}", code(mitchell_session, table).code, ip=IP
        ) == code(mitchell_session, table)


def test_the_device_cookie_names_the_tables_it_signed_in_at(mitchell_session):
    first, second = code(mitchell_session, 1), code(mitchell_session, 2)
    value = table_signin.device_cookie(Device(), first)
    device = table_signin.device_from_cookie(value)
    assert device.id and device.knows(first) and not device.knows(second)
    again = table_signin.device_from_cookie(table_signin.device_cookie(device, second))
    assert again.id == device.id and again.knows(first) and again.knows(second)
    for odd in (None, "", "[]", '{"tables": 3}', "not json"):
        assert table_signin.device_from_cookie(odd) == Device()


def test_a_broken_cache_lets_sign_in_go_on(mitchell_session, limits, monkeypatch, caplog):
    class Down:
        def __getattr__(self, name):
            def broken(*args, **kwargs):
                raise ConnectionError("redis is down")

            return broken

    monkeypatch.setattr(table_signin, "cache", Down())
    with caplog.at_level(logging.WARNING, logger="tournaments.services.table.table_signin"):
        fail(n=5)
        table_code = code(mitchell_session, 1)
        assert table_signin.sign_in_with_code("A1", table_code.code, ip=IP) == table_code
    assert "cache unavailable" in caplog.text


def test_a_failure_is_logged_on_one_line(mitchell_session, caplog):
    with caplog.at_level(logging.WARNING, logger="tournaments.services.table.table_signin"):
        fail("A3", ip="203.0.113.5")
    [record] = [r for r in caplog.records if "refused" in r.getMessage()]
    line = record.getMessage()
    assert "\n" not in line and "ip=203.0.113.5" in line and "table=A3" in line
    assert "ZZZZZ" not in line  # what was typed is not logged


def test_the_client_address_behind_the_proxy(settings):
    meta = {"REMOTE_ADDR": "10.1.1.1", "HTTP_X_FORWARDED_FOR": "1.2.3.4, 203.0.113.9"}
    settings.SECURE_PROXY_SSL_HEADER = None
    assert table_signin.client_ip(meta) == "10.1.1.1"
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    assert table_signin.client_ip(meta) == "203.0.113.9"  # the hop the proxy appended
    assert table_signin.client_ip({"REMOTE_ADDR": "10.1.1.1"}) == "10.1.1.1"

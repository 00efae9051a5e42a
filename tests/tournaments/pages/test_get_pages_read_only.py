"""GET pages only read: the player's page and the season ranking award no master points
(the points appear after the events that make them due: the worker's sweep once the
correction period is over, the secretary saving the scale, a re-classification), and the
door list and cash sheet charge or drop no fee (the session's start and the director's
update do; a fee that money moved on is cancelled, never deleted)."""

import datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from clubsite.models import Member, Season
from tests.signed_in import sign_in_verified
from tests.sql_writes import writes
from tournaments.jobs import sweep as job_sweep
from tournaments.models import (
    AuditAction,
    AuditEntry,
    PointsAward,
    TableFee,
    TableFeeMove,
    TableMethod,
)
from tournaments.services.entries import registration
from tournaments.services.money import cash_sheet, table_fees
from tournaments.services.results import master_points, publish
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db


def get_writes(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return response, writes(queries.captured_queries)


# --- master points ----------------------------------------------------------------------------


@pytest.fixture
def ended(played_howell, director):
    """A final Howell of today whose correction period ended an hour ago, never awarded."""
    publish.publish_final(
        played_howell, user=director, at=timezone.now() - datetime.timedelta(minutes=90)
    )
    assert publish.correction_period_over(played_howell)
    return played_howell


def points_pages(tournament):
    player = tournament.entries.first().players.first().pk
    return [
        reverse("results:player", args=[player]),
        reverse("results:season"),
        reverse("results:season_for", args=[Season.for_date(tournament.date).pk]),
    ]


def test_reading_the_points_pages_awards_nothing_until_the_sweep_does(
    client, director, ended, three_places_scale
):
    for url in points_pages(ended):
        for who in (client, None):
            if who is None:  # the director reads too
                sign_in_verified(client, director)
            _response, written = get_writes(client, url)
            assert written == [], f"GET {url} wrote {written}"
    assert not PointsAward.objects.exists()
    assert job_sweep.sweep().points == [ended.pk]
    top = PointsAward.objects.order_by("-points").first()
    page = client.get(reverse("results:player", args=[top.member_id])).content.decode()
    assert f'id="season-points" data-value="{top.points}"' in page
    assert (
        f'data-member="{top.member_id}"' in client.get(reverse("results:season")).content.decode()
    )


def test_the_secretary_filling_the_scale_awards_the_waiting_tournaments(secretary_client, ended):
    from tests.tournaments.results.test_master_points_views import place_row, post_scale

    secretary_client.get(points_pages(ended)[0])
    assert not PointsAward.objects.exists()
    response = post_scale(secretary_client, [place_row(1, "6"), place_row(2, "4")])
    assert response.status_code == 302
    assert PointsAward.objects.filter(tournament=ended).exists()
    assert AuditEntry.objects.filter(tournament=ended, action=AuditAction.POINTS).count() == 1


def test_a_reclassification_awards_a_due_tournament_and_not_an_open_one(
    ended, director, three_places_scale
):
    assert master_points.results_changed(ended.pk)
    assert PointsAward.objects.filter(tournament=ended).exists()
    assert not master_points.results_changed(ended.pk)  # unchanged: awarded once
    ended.published_at = timezone.now()
    ended.save(update_fields=["published_at"])
    PointsAward.objects.all().delete()
    ended.points_awarding.delete()
    assert not master_points.results_changed(ended.pk)  # still inside its period
    assert not PointsAward.objects.exists()


# --- the door list ----------------------------------------------------------------------------

DAY = datetime.date(2025, 10, 14)


@pytest.fixture
def night(db):
    rates = table_fees.rates_for(Season.for_date(DAY))
    rates.member_fee = Decimal("5.00")
    rates.save()
    people = [Member.objects.create(first_name=f, last_name="Ruiz") for f in "ABCD"]
    tournament = setup.create_tournament(name="Martes", date=DAY)
    entries = [
        registration.register_entry(tournament, people[:2]),
        registration.register_entry(tournament, people[2:]),
    ]
    return {"session": tournament.sessions.get(), "people": people, "entries": entries}


def door_urls(session):
    return [
        reverse("director:table_fees", args=[session.pk]),
        reverse("director:table_fees", args=[session.pk]) + "?q=ruiz&unpaid=1",
        reverse("director:cash_sheet", args=[session.pk]),
    ]


def test_the_door_list_and_sheet_only_read(director_client, night, secretary):
    session = night["session"]
    for url in door_urls(session):  # nobody charged yet: the list says so and waits
        response, written = get_writes(director_client, url)
        assert written == [], f"GET {url} wrote {written}"
    assert not TableFee.objects.exists()
    director_client.cookies["django_language"] = "en"
    page = director_client.get(door_urls(session)[0]).content.decode()
    assert "4 players entered have no fee yet." in page and 'id="door-update"' in page
    director_client.post(reverse("director:table_fees_update", args=[session.pk]))
    assert TableFee.objects.count() == 4
    fees = {f.member.first_name: f for f in table_fees.session_fees(session)}
    table_fees.pay(fees["A"], TableMethod.CASH)
    table_fees.refund(fees["A"], reason="wrong tap")
    registration.withdraw_entry(night["entries"][0], user=secretary, reason="se fueron")
    before = set(TableFee.objects.values_list("pk", "voided_at"))
    for url in door_urls(session):  # a pair left: still nothing written by reading
        _response, written = get_writes(director_client, url)
        assert written == [], f"GET {url} wrote {written}"
    assert set(TableFee.objects.values_list("pk", "voided_at")) == before


def test_starting_the_session_charges_the_door_list(night, movements, pairs):
    session = night["session"]
    section = setup.add_section(session)
    Member.objects.bulk_create(Member(first_name=f"X{i}", last_name="Y") for i in range(10))
    extra = list(Member.objects.filter(last_name="Y"))
    tournament = session.tournament
    for i in range(0, 10, 2):
        registration.register_entry(tournament, extra[i : i + 2])
    setup.seat_section(section, movements.howell(), list(tournament.entries.all()))
    assert not TableFee.objects.exists()
    setup.start_session(session)
    assert TableFee.objects.filter(session=session).count() == 14


def test_a_fee_money_moved_on_is_cancelled_with_its_history_not_deleted(night, secretary, director):
    session = night["session"]
    fees = {f.member.first_name: f for f in table_fees.charge_session(session)}
    table_fees.pay(fees["A"], TableMethod.CASH, user=director)
    table_fees.refund(fees["A"], user=director, reason="wrong tap")
    registration.withdraw_entry(night["entries"][0], user=secretary, reason="se fueron")
    assert {m.first_name for m in table_fees.pending(session).new} == set()
    assert {f.member.first_name for f in table_fees.pending(session).gone} == {"A", "B"}
    kept = table_fees.charge_session(session, user=director)
    assert sorted(f.member.first_name for f in kept) == ["C", "D"]
    a = TableFee.objects.get(pk=fees["A"].pk)  # cancelled, with both its moves
    assert a.voided_at is not None and not a.is_due
    assert list(TableFeeMove.objects.filter(fee=a).values_list("amount", flat=True)) == [
        Decimal("5.00"),
        Decimal("-5.00"),
    ]
    assert not TableFee.objects.filter(pk=fees["B"].pk).exists()  # no money ever moved
    void = AuditEntry.objects.get(session=session, action=AuditAction.FEE_VOIDED)
    assert void.user == director and void.after["player"] == a.member.full_name
    figures = cash_sheet.figures(session)
    assert (figures.expected, figures.players) == (Decimal("10.00"), 2)
    assert not table_fees.pending(session)
    with translation.override("en"), pytest.raises(table_fees.MoneyError, match="cancelled"):
        table_fees.pay(a, TableMethod.CASH)

    from tournaments.services.entries.reinstatement import reinstate_entry

    reinstate_entry(night["entries"][0], user=secretary, reason="volvieron")
    assert {m.first_name for m in table_fees.pending(session).new} == {"A", "B"}
    table_fees.charge_session(session, user=director)
    a.refresh_from_db()
    assert a.voided_at is None and a.is_due
    assert AuditEntry.objects.filter(session=session, action=AuditAction.FEE_RESTORED).count() == 1
    assert TableFee.objects.filter(session=session).count() == 4


def test_a_closed_sheet_keeps_the_door_list_as_it_is(director_client, night, secretary):
    session = night["session"]
    zero = {m: Decimal("0") for m in cash_sheet.COUNTED}
    cash_sheet.close(session, counted=zero, user=secretary, note="nobody came")
    director_client.cookies["django_language"] = "en"
    page = director_client.post(
        reverse("director:table_fees_update", args=[session.pk]), follow=True
    ).content.decode()
    assert "The cash sheet is closed: the door list cannot change" in page
    assert 'id="door-update"' not in page
    assert not TableFee.objects.exists()

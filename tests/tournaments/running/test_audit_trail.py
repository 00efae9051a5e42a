"""The audit trail: every action that changes results leaves one row (who, when, before,
after), the admin cannot change results behind its back, and the director downloads it as
a CSV file per session.

Tonight's running Mitchell and its members are built once for the module
(tests/module_rows.py), each test in a savepoint of it; a teams event's and an import's audit rows, from a club
without them, are in test_audit_line_up_and_import.py."""

import csv
import datetime
import io
import uuid

import pytest
from django.urls import reverse

from clubsite.models import Member
from tests.signed_in import sign_in_verified
from tests.tournaments.conftest import shared_mitchell
from tournaments.models import (
    AuditAction,
    AuditEntry,
    Penalty,
    Result,
    Session,
    StoredRanking,
    TableCode,
)
from tournaments.services.entries import registration
from tournaments.services.results import publish
from tournaments.services.running import corrections
from tournaments.services.setup import events as setup
from tournaments.services.table import entry

pytestmark = pytest.mark.django_db


members, mitchell_session = shared_mitchell()


def code(section, table):
    return TableCode.objects.get(section=section, table=table, active=True)


def post(section, table=1, round_=1, board=1, tricks=10, key=None):
    return entry.submit_result(
        table_code=code(section, table),
        round=round_,
        board=board,
        contract="4S",
        declarer="N",
        tricks=tricks,
        idempotency_key=key or uuid.uuid4().hex,
    ).result


def one_new_row(action, do):
    """Run ``do`` and return the one audit row it wrote (failing on none or several)."""
    seen = set(AuditEntry.objects.values_list("pk", flat=True))
    do()
    new = list(AuditEntry.objects.exclude(pk__in=seen))
    assert [row.action for row in new] == [action]
    row = new[0]
    assert row.at is not None and row.after is not None
    return row


# --- every result-changing action -----------------------------------------------------------


def test_director_correction_adjustment_removal(mitchell_session, director):
    row = post(mitchell_session)
    corrected = one_new_row(
        AuditAction.CORRECTED,
        lambda: corrections.correct_result(
            row, user=director, contract="4S", declarer="N", tricks=11, reason="Error"
        ),
    )
    assert (corrected.user, corrected.before["tricks"], corrected.after["tricks"]) == (
        director,
        10,
        11,
    )
    adjusted = one_new_row(
        AuditAction.ADJUSTED,
        lambda: corrections.adjust_score(
            user=director,
            section=mitchell_session,
            round=1,
            table=1,
            board=1,
            adjustment={"kind": "artificial", "ns": "A+", "ew": "A-"},
            reason="Mano sucia",
        ),
    )
    assert adjusted.before["adjustment"] is None and adjusted.after["adjustment"]
    removed = one_new_row(
        AuditAction.DELETED,
        lambda: corrections.remove_result(row, user=director, reason="Pareja equivocada"),
    )
    assert (removed.before["status"], removed.after["status"]) == ("ok", "rejected")


def test_director_entry_and_confirmation_are_audited(mitchell_session, director):
    created = []
    entered = one_new_row(
        AuditAction.ENTERED,
        lambda: created.append(
            entry.submit_result(
                user=director,
                section=mitchell_session,
                table=2,
                round=1,
                board=3,
                contract="3NT",
                declarer="S",
                tricks=9,
                idempotency_key="director-1",
            ).result
        ),
    )
    assert entered.user == director and entered.before is None
    assert entered.after["contract"] == "3NT" and entered.result == created[0]
    row = post(mitchell_session)  # a table's post: no audit row (the first entry)
    assert not AuditEntry.objects.filter(result=row).exists()
    confirmed = one_new_row(AuditAction.CONFIRMED, lambda: entry.confirm_result(row, user=director))
    assert (confirmed.before["confirmed"], confirmed.after["confirmed"]) == (False, True)
    entry.confirm_result(post(mitchell_session, board=2), table_code=code(mitchell_session, 1))
    assert AuditEntry.objects.filter(action=AuditAction.CONFIRMED).count() == 1


def test_conflict_resolution_and_penalty(mitchell_session, director):
    post(mitchell_session)
    clash = entry.submit_result(
        table_code=code(mitchell_session, 1),
        round=1,
        board=1,
        contract="4S",
        declarer="N",
        tricks=9,
        idempotency_key="other",
    )
    assert clash.outcome == "conflict"
    resolved = one_new_row(
        AuditAction.RESOLVED,
        lambda: corrections.resolve_conflict(
            clash.result, user=director, keep_new=True, reason="Confirmado"
        ),
    )
    assert resolved.before["tricks"] == 10 and resolved.after["tricks"] == 9
    pair = mitchell_session.seatings.get(number=2, direction="EW").entry
    penalty = one_new_row(
        AuditAction.PENALTY,
        lambda: corrections.add_penalty(
            user=director,
            entry=pair,
            session=mitchell_session.session,
            fraction_of_top="0.5",
            reason="Tardanza",
        ),
    )
    assert penalty.user == director and penalty.after["fraction_of_top"] == "0.5"


def test_publication_withdrawal_substitution(mitchell_session, director, members):
    tournament = mitchell_session.session.tournament
    post(mitchell_session)
    published = one_new_row(
        AuditAction.PUBLISHED, lambda: publish.publish_provisional(tournament, user=director)
    )
    assert published.user == director
    pair = mitchell_session.seatings.get(number=3, direction="NS").entry
    withdrawn = one_new_row(
        AuditAction.WITHDRAWN,
        lambda: registration.withdraw_entry(pair, user=director, reason="Enfermo"),
    )
    assert (withdrawn.before["status"], withdrawn.after["status"]) == ("active", "withdrawn")
    other = mitchell_session.seatings.get(number=4, direction="NS").entry
    leaving = other.players.first()
    joining = Member.objects.create(first_name="Nuevo", last_name="Jugador", licence_number="SUB-1")
    substituted = one_new_row(
        AuditAction.SUBSTITUTE,
        lambda: registration.substitute_player(
            other, leaving=leaving, joining=joining, user=director, reason="Cansado"
        ),
    )
    assert substituted.before["member"] == leaving.pk
    assert substituted.after["member"] == joining.pk


def test_table_code_replacement_is_audited_without_the_code(mitchell_session, director):
    old = code(mitchell_session, 3)
    replaced = one_new_row(
        AuditAction.TABLE_CODE,
        lambda: setup.replace_table_code(old, user=director, reason="Tarjeta perdida"),
    )
    new = code(mitchell_session, 3)
    assert replaced.user == director and replaced.session_id == mitchell_session.session_id
    assert replaced.before == {"table": "A3", "device": old.pk}
    assert replaced.after == {"table": "A3", "device": new.pk}
    assert old.code not in str(replaced.after) + str(replaced.before)


# --- the admin ------------------------------------------------------------------------------


@pytest.fixture
def admin_client(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@example.org", "pw-12345678")
    sign_in_verified(client, admin)
    return client


def test_admin_cannot_change_or_delete_results(admin_client, mitchell_session):
    row = post(mitchell_session)
    url = reverse("admin:tournaments_result_change", args=[row.pk])
    page = admin_client.get(url)
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
    answer = admin_client.post(
        url, {"contract": "7NT", "declarer": "N", "tricks": 13, "ns_score": 1520, "status": "ok"}
    )
    assert answer.status_code == 403
    row.refresh_from_db()
    assert (row.contract, row.ns_score) == ("4S", 420)
    assert (
        admin_client.post(
            reverse("admin:tournaments_result_delete", args=[row.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    assert Result.objects.filter(pk=row.pk).exists()
    for model in (Result, Penalty, StoredRanking):
        name = model._meta.model_name
        assert admin_client.get(reverse(f"admin:tournaments_{name}_add")).status_code == 403


# --- the CSV export -------------------------------------------------------------------------


def read_csv(response, delimiter=";") -> list[list[str]]:
    """The file as a Spanish spreadsheet reads it: BOM, then ";" between cells."""
    content = response.content
    assert content.startswith("\ufeff".encode())
    return list(csv.reader(io.StringIO(content.decode("utf-8")[1:]), delimiter=delimiter))


def test_audit_csv_has_the_sessions_rows_in_local_time(
    director_client, mitchell_session, director, settings
):
    settings.TIME_ZONE = "Europe/Madrid"
    tournament = mitchell_session.session.tournament
    row = post(mitchell_session)
    corrections.correct_result(
        row,
        user=director,
        contract="4S",
        declarer="N",
        tricks=11,
        reason='=HYPERLINK("http://evil")',
    )
    utc = datetime.datetime(2025, 7, 1, 18, 30, tzinfo=datetime.UTC)
    AuditEntry.objects.filter(result=row).update(at=utc)
    other = Session.objects.create(tournament=tournament, number=2)
    AuditEntry.objects.create(
        tournament=tournament,
        session=other,
        action=AuditAction.MOVEMENT,
        user=director,
        after={"x": 1},
    )
    pair = mitchell_session.seatings.get(number=3, direction="NS").entry
    registration.withdraw_entry(pair, user=director, reason="Enfermo")  # tournament-wide

    url = reverse("director:audit_csv", args=[tournament.pk])
    response = director_client.get(url, {"session": mitchell_session.session_id})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert "attachment" in response["Content-Disposition"]
    assert "-session-1.csv" in response["Content-Disposition"]
    header, *rows = read_csv(response)
    assert len(header) == 12
    actions = [r[3] for r in rows]
    assert len(rows) == 2  # the correction and the withdrawal, not session 2's row
    corrected = rows[0]
    assert corrected[0] == "2025-07-01 20:30:00"  # Madrid summer time, not UTC
    assert corrected[1] == "1" and corrected[4:7] == ["1", "A1", "1"]
    assert '"tricks": 10' in corrected[7] and '"tricks": 11' in corrected[8]
    assert corrected[9].startswith("'=HYPERLINK")  # never a formula
    assert corrected[2] == (director.get_full_name() or director.username)
    assert actions[1] == AuditAction.WITHDRAWN.label

    everything = read_csv(director_client.get(url))
    assert len(everything) == 1 + 3  # without ?session=: every row of the tournament


def test_audit_page_links_the_csv(director_client, mitchell_session):
    tournament = mitchell_session.session.tournament
    Session.objects.create(tournament=tournament, number=2)
    page = director_client.get(reverse("director:audit", args=[tournament.pk])).content.decode()
    url = reverse("director:audit_csv", args=[tournament.pk])
    assert f'href="{url}"' in page
    # filtered by a session, the download is that session's
    page = director_client.get(
        reverse("director:audit", args=[tournament.pk]), {"session": mitchell_session.session_id}
    ).content.decode()
    assert f'href="{url}?session={mitchell_session.session_id}"' in page


@pytest.mark.parametrize("bad", ["abc", "0", "-1", "99999999"])
def test_audit_csv_of_an_unknown_session_is_a_404(director_client, mitchell_session, bad):
    url = reverse("director:audit_csv", args=[mitchell_session.session.tournament.pk])
    assert director_client.get(url, {"session": bad}).status_code == 404


def test_audit_csv_of_another_tournaments_session_is_a_404(
    director_client, mitchell_session, howell_session
):
    url = reverse("director:audit_csv", args=[mitchell_session.session.tournament.pk])
    response = director_client.get(url, {"session": howell_session.session_id})
    assert response.status_code == 404


@pytest.mark.parametrize("who", ["player_client", "secretary_client"])
def test_audit_csv_is_the_directors(request, who, mitchell_session):
    client = request.getfixturevalue(who)
    url = reverse("director:audit_csv", args=[mitchell_session.session.tournament.pk])
    assert client.get(url, {"session": mitchell_session.session_id}).status_code == 403


def test_audit_csv_needs_a_login(client, mitchell_session):
    url = reverse("director:audit_csv", args=[mitchell_session.session.tournament.pk])
    response = client.get(url)
    assert response.status_code == 302 and reverse("login") in response["Location"]

"""The director reads the audit trail on a tablet, in es, pt and en: a correction at table
A1 reads "Bazas: 10 → 11" in words and local time; filtering by table, then by kind, narrows
it; the trail runs over pages; the CSV link downloads what the filter shows.
Screenshots: var/screenshots/audit-*.png."""

import csv
import io
import re
import uuid

import pytest
from django.contrib.auth.models import User

from clubsite.accounts.permissions import Role, grant
from tests.e2e.e2e_helpers import choose_language, journey_languages, login, screenshot
from tests.e2e.test_table_entry import seven_table_mitchell
from tournaments.models import AuditAction, AuditEntry, TableCode
from tournaments.services.running import corrections
from tournaments.services.table import entry

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WORDS = {
    "es": ("Bazas", "Resultado corregido"),
    "pt": ("Vazas", "Resultado corrigido"),
    "en": ("Tricks", "Result corrected"),
}


@pytest.mark.parametrize("language", journey_languages("es"))
def test_director_filters_pages_and_exports_the_trail(live_server, new_page, language):
    section = seven_table_mitchell()
    tournament = section.session.tournament
    director = User.objects.create_user(
        username="td", password="pass-1234-word", first_name="Ana", last_name="Árbitra"
    )
    grant(director, Role.DIRECTOR)
    rows = []
    for table, board in ((1, 1), (2, 3)):
        code = TableCode.objects.get(section=section, table=table, active=True)
        rows.append(
            entry.submit_result(
                table_code=code,
                round=1,
                board=board,
                contract="4S",
                declarer="N",
                tricks=10,
                idempotency_key=uuid.uuid4().hex,
            ).result
        )
    for row in rows:
        corrections.correct_result(
            row, user=director, contract="4S", declarer="N", tricks=11, reason="Planilla"
        )
    AuditEntry.objects.bulk_create(
        [
            AuditEntry(
                tournament=tournament,
                session=section.session,
                user=director,
                action=AuditAction.MOVEMENT,
                after={"rounds": n},
            )
            for n in range(60)
        ]
    )

    base = live_server.url
    page = new_page("tablet")
    choose_language(page, base, language)
    login(page, base, "td", "pass-1234-word")
    page.goto(f"{base}/director/{tournament.pk}/audit/")
    assert page.locator("tr.audit-row").count() == 50
    page.click(".pagination a[rel=next]")
    page.wait_for_url(re.compile(r"page=2"))
    assert page.locator("tr.audit-row").count() == 12
    screenshot(page, f"audit-1-page-2-{language}")

    tricks, corrected = WORDS[language]
    page.fill("#id_table", "A1")
    page.select_option("#id_kind", AuditAction.CORRECTED)
    page.click("#audit-filter button[type=submit]")
    page.wait_for_url(re.compile(r"table=A1"))
    assert page.locator("tr.audit-row").count() == 1
    text = page.inner_text("tr.audit-row")
    assert f"{tricks}: 10 → 11" in text and corrected in text and "Ana Árbitra" in text
    assert "A1" in text
    screenshot(page, f"audit-2-filtered-{language}")

    with page.expect_download() as download:
        page.click("#audit-csv-link")
    content = open(download.value.path(), encoding="utf-8-sig").read()
    lines = list(csv.reader(io.StringIO(content), delimiter=";" if ";" in content else ","))
    assert len(lines) == 2 and lines[1][5] == "A1"

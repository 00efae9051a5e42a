"""The secretary, in es, pt and en: prepares the arrears reminders, reads every mail and its
recipient before anything goes out, sends only two, finds them in the record, and is not
offered them again for the same debt; then downloads the member list and imports it back
(its "Vigente"/"Válida"/"Valid" words read as licence states).
Screenshots: var/screenshots/club-reminders-*.png."""

import pytest
from django.core import mail

from clubsite.demo import DEMO_PASSWORD, build_club
from clubsite.models import ArrearsReminder
from tests.e2e.e2e_helpers import choose_language, journey_languages, login, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WORDS = {"es": "pendiente", "pt": "pendentes", "en": "pending"}


@pytest.mark.parametrize("language", journey_languages("pt"))
def test_secretary_previews_sends_and_reads_the_record(live_server, new_page, language):
    build_club()
    base = live_server.url
    page = new_page("tablet")
    choose_language(page, base, language)
    login(page, base, "secretaria", DEMO_PASSWORD)
    page.goto(f"{base}/club/arrears/")
    page.click("#prepare-reminders")
    page.wait_for_selector("#reminders-form")
    assert mail.outbox == []  # the preview sends nothing
    boxes = page.locator("#reminders-form input[name=member]")
    assert boxes.count() >= 3
    page.locator(".reminder details summary").first.click()
    assert WORDS[language] in page.inner_text(".reminder .mail-body >> nth=0")
    screenshot(page, f"club-reminders-1-preview-{language}")
    for i in range(2, boxes.count()):  # only the first two
        boxes.nth(i).uncheck()
    chosen = [boxes.nth(i).get_attribute("value") for i in range(2)]
    page.click("#send-reminders")
    page.wait_for_selector("#reminders-sent")
    page.wait_for_selector("tr.reminder-row[data-state=sent]")
    assert page.locator("tr.reminder-row").count() == 2
    assert len(mail.outbox) == 2 and WORDS[language] in mail.outbox[0].body
    assert sorted(str(r.member_id) for r in ArrearsReminder.objects.all()) == sorted(chosen)
    screenshot(page, f"club-reminders-2-record-{language}")

    page.goto(f"{base}/club/arrears/reminders/")
    for pk in chosen:  # already reminded about the same debt: not ticked, said so
        card = page.locator(f".reminder[data-member='{pk}']")
        assert card.get_attribute("data-state") == "sent"
        assert card.locator("input[name=again]").is_checked() is False
        assert card.locator(".already-sent").is_visible()
    screenshot(page, f"club-reminders-3-already-sent-{language}")


@pytest.mark.parametrize("language", journey_languages("en"))
def test_the_member_list_imports_back(live_server, new_page, language):
    build_club()
    base = live_server.url
    page = new_page("desktop")
    choose_language(page, base, language)
    login(page, base, "secretaria", DEMO_PASSWORD)
    page.goto(f"{base}/club/members/")
    with page.expect_download() as download:
        page.click("a[href*='export.csv']")
    content = download.value.path().read_bytes()
    page.goto(f"{base}/club/import/")
    page.set_input_files(
        "input[name=file]",
        files=[{"name": "members.csv", "mimeType": "text/csv", "buffer": content}],
    )
    page.click("form[enctype] button[type=submit]")
    page.wait_for_selector("#preview")
    assert page.locator("#preview table.errors").count() == 0
    assert page.locator("form[action$='/import/confirm/']").count() == 1
    screenshot(page, f"club-roster-own-export-{language}")

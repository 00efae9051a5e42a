"""Results by mail in a real browser, in es, pt and en: the player, on a phone, chooses the
language of the club's mails and opts out of results mails on their own page; the director,
on a desktop or tablet, opens the results mail from the tournament, reads each mail (in its
member's language) and who is left out (the player who opted out among them), sends them,
finds the record, and after a correction reads and sends the correction mail, which names
the board and the old → new ranking line. A stale page's button is answered by a message.
Screenshots: var/screenshots/results-mail-*.png."""

import pytest
from django.core import mail

from clubsite.demo import DEMO_PASSWORD, build_club
from clubsite.models import Member
from tests.e2e.e2e_helpers import (
    choose_language,
    journey_languages,
    login,
    no_sideways_scroll,
    screenshot,
)
from tournaments import demo
from tournaments.models import PlayerMail, Result, Tournament
from tournaments.services.running import corrections

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The page's words in each language: the opt-out's reason, the sent message, the correction.
WORDS = {
    "es": ("no quiere resultados por correo", "Se están enviando", "tablero"),
    "pt": ("não quer resultados por correio", "Estão a ser enviados", "mão"),
    "en": ("does not want results by mail", "are being sent", "board"),
}
SCREENS = {"es": "desktop", "pt": "tablet", "en": "tablet"}


@pytest.fixture
def published():
    build_club()
    demo.build_tournaments(only=("martes",))  # played, published final
    return Tournament.objects.get(status="final")


@pytest.mark.parametrize("language", journey_languages("pt"))
def test_player_opts_out_and_director_previews_and_sends(
    live_server, new_page, published, language
):
    base = live_server.url
    lucia = Member.objects.get(user__username="jugador")
    other = {"es": "pt", "pt": "en", "en": "es"}[language]

    # the player, on a phone: the language of mails and the opt-out
    phone = new_page("phone")
    choose_language(phone, base, language)
    login(phone, base, "jugador", DEMO_PASSWORD)
    phone.goto(f"{base}/club/me/")
    phone.select_option("select[name=language]", other)
    phone.uncheck("input[name=results_mail]")
    phone.fill("input[name=email]", "not an address")
    phone.click("form.card button[type=submit]")
    phone.wait_for_selector(".errorlist")  # said why, kept what was typed
    assert phone.input_value("input[name=email]") == "not an address"
    assert phone.is_checked("input[name=results_mail]") is False
    no_sideways_scroll(phone)
    screenshot(phone, f"results-mail-1-player-bad-input-{language}")
    phone.fill("input[name=email]", "lucia@example.org")
    phone.click("form.card button[type=submit]")
    phone.wait_for_selector(".messages, .message, [role=status]")
    lucia.refresh_from_db()
    assert lucia.results_mail is False and lucia.language == other
    no_sideways_scroll(phone)
    screenshot(phone, f"results-mail-2-player-opted-out-{language}")

    # the director: from the tournament to the preview
    page = new_page(SCREENS[language])
    choose_language(page, base, language)
    login(page, base, "director", DEMO_PASSWORD)
    page.goto(f"{base}/director/{published.pk}/")
    assert page.get_attribute("#results-mail-link", "data-state") == "unsent"
    page.click("#results-mail-link")
    page.wait_for_selector("#mail-drafts")
    assert mail.outbox == []  # the preview sends nothing
    drafts = page.locator(".mail-draft")
    count = drafts.count()
    assert count > 5 and page.locator(f".mail-draft[data-member='{lucia.pk}']").count() == 0
    page.click("#mail-left-out summary")
    assert WORDS[language][0] in page.inner_text("#mail-left-out")
    drafts.first.locator("summary").click()
    assert "/pair/" in drafts.first.locator(".mail-body").inner_text()
    no_sideways_scroll(page)
    screenshot(page, f"results-mail-3-preview-{language}")

    page.click("#send-mails")
    page.wait_for_selector(".mailing")
    assert WORDS[language][1] in page.inner_text("body")
    assert len(mail.outbox) == count and lucia.email not in {m.to[0] for m in mail.outbox}
    page.click(".mailing details summary")
    assert page.locator(".mail-row[data-state=sent]").count() == count
    assert page.locator("#mail-up-to-date").is_visible()
    assert page.locator("#mail-drafts, #mail-changes").count() == 0  # nothing new to send
    screenshot(page, f"results-mail-4-sent-{language}")

    # a correction: the page offers the correction mail, naming the board
    stale = new_page(SCREENS[language])
    stale.context.add_cookies(page.context.cookies())
    result = Result.objects.filter(section__session__tournament=published).order_by("pk")[0]
    corrections.correct_result(
        result,
        user=None,
        contract="7NT",
        declarer="N",
        tricks=13,
        reason="Error de anotación",
        override=True,
    )
    page.goto(f"{base}/director/{published.pk}/")
    assert page.get_attribute("#results-mail-link", "data-state") == "correction"
    no_sideways_scroll(page)
    screenshot(page, f"results-mail-5a-tournament-correction-waiting-{language}")
    page.click("#results-mail-link")
    page.wait_for_selector("#mail-changes")
    assert WORDS[language][2] in page.inner_text("#mail-changes")
    assert str(result.board.number) in page.inner_text("#mail-changes")
    page.locator(".mail-draft summary").first.click()
    assert "→" in page.locator(".mail-draft .mail-body").first.inner_text()
    screenshot(page, f"results-mail-5-correction-preview-{language}")
    stale.goto(page.url)  # the same preview in a second tab, sent after the first
    corrected = page.locator(".mail-draft").count()
    page.click("#send-mails")
    page.wait_for_selector(".mailing >> nth=1")
    assert len(mail.outbox) == count + corrected
    stale.click("#send-mails")  # already sent from the other tab: said so, nothing more
    stale.wait_for_selector(".messages, .message, [role=alert]")
    assert len(mail.outbox) == count + corrected
    assert PlayerMail.objects.count() == count + corrected
    screenshot(stale, f"results-mail-6-already-sent-{language}")

"""A table's phone through a Wi-Fi drop of a whole round and more: signed in online (the
service worker keeps the round's pages), then offline it enters every board of round 1 with
the opponents' confirmation, goes to the next board, reloads, follows "next round" and enters
round 2 too; the pending count says what waits. Back online the queue is sent in order and
the server holds exactly what was tapped, each once; the same queue replayed twice changes
nothing. A result differing from one the director stored shows as a conflict."""

import json
import time

import pytest

from tests.e2e.e2e_helpers import screenshot
from tests.e2e.table_device import (
    choice,
    confirm_and_check,
    expected_score,
    fill_board,
    sign_in,
    tap_contract,
)
from tests.e2e.test_table_entry import seven_table_mitchell
from tournaments.models import Result, ResultStatus, TableCode
from tournaments.services.setup import plan

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLE = 1

# Read as JSON text, and never waited for without end (an evaluate has no timeout).
READ_QUEUE = """() => Promise.race([new Promise(r => setTimeout(() => r('"timeout"'), 3000)),
  OfflineQueue.open(indexedDB).then(q => q.list()).then(rows => JSON.stringify(rows))])"""

REPLAY = """(rows) => Promise.race([
  new Promise((_, reject) => setTimeout(() => reject(new Error("replay: no answer")), 5000)),
  OfflineQueue.open(indexedDB).then(q => new Promise((resolve, reject) => {
    const tx = q.db.transaction("actions", "readwrite");
    const store = tx.objectStore("actions");
    for (const row of rows) {
      const copy = Object.assign({}, row, {state: "waiting"});
      delete copy.seq;
      store.add(copy);
    }
    tx.oncomplete = () => resolve(rows.length);
    tx.onerror = () => reject(new Error("replay: " + tx.error));
    tx.onabort = () => reject(new Error("replay aborted: " + tx.error));
  }))])"""

QUEUE_LENGTH = """() => Promise.race([new Promise(r => setTimeout(() => r(-1), 3000)),
  OfflineQueue.open(indexedDB).then(q => q.list()).then(rows => rows.length)])"""


def tap_offline(page, c: dict) -> None:
    """The buttons, as ``fill_board`` taps them, without waiting for the server's preview."""
    tap_contract(page, c)


THREE_NT = {"level": "3", "strain": "NT", "double": "", "declarer": "S", "made": "=", "lead": None}


def save_offline(page, c: dict) -> None:
    """Tap ``c`` on the pad and save it with the Wi-Fi down: it waits on the device."""
    tap_offline(page, c)
    page.click("#save-button")
    page.wait_for_selector("#entry-status[data-state=waiting]")


def signed_in_phone(live_server, new_page):
    """A phone signed in at table 1 of a running Mitchell, its round kept by the worker."""
    section = seven_table_mitchell()
    table_code = TableCode.objects.get(section=section, table=TABLE, active=True)
    phone = new_page("phone")
    sign_in(phone, live_server.url, table_code)
    phone.wait_for_selector("#table-app[data-offline=ready]", state="attached", timeout=30000)
    return section, phone


def offline_on_board_one(live_server, new_page):
    """A signed-in phone whose round is kept by the worker, the Wi-Fi down, on board 1."""
    section, phone = signed_in_phone(live_server, new_page)
    phone.context.set_offline(True)
    phone.click("a[data-board-key='1-1']")
    phone.wait_for_selector("#result-form")
    return section, phone


def enter_round_offline(page, section, round_: int, reload_after: int | None = None) -> list:
    slot = plan.slot_for(section.movement, round_, TABLE)
    page.wait_for_selector(f"#round[data-round='{round_}']")
    page.click(f"a[data-board-key='{round_}-{slot.boards[0]}']")
    entered = []
    for i, number in enumerate(slot.boards):
        page.wait_for_selector(f"#board-screen[data-board='{number}'] #result-form")
        c = choice(TABLE, round_, number)
        tap_offline(page, c)
        page.click("#save-button")
        page.wait_for_selector("#entry-status[data-state=waiting]")
        page.click("#offline-confirm-button")  # East-West's tap, queued after the result
        page.wait_for_selector("#offline-confirm", state="hidden")
        entered.append((round_, number, c))
        if number == reload_after:
            page.reload()  # the worker serves the page; the queue is still in IndexedDB
            page.wait_for_selector(
                f"#board-screen[data-board='{number}'] #entry-status[data-state=waiting]"
            )
            page.wait_for_selector("#offline-nav")
        page.click("#round-link" if i + 1 == len(slot.boards) else "#next-board")
    page.wait_for_selector(f"#round[data-round='{round_}']")
    for _, number, _c in entered:
        page.wait_for_selector(
            f"a[data-board-key='{round_}-{number}'] .local-state[data-state=waiting]"
        )
    return entered


def test_a_whole_round_offline_is_stored_once_when_the_network_returns(live_server, new_page):
    section = seven_table_mitchell()
    table_code = TableCode.objects.get(section=section, table=TABLE, active=True)
    phone = new_page("phone")
    sign_in(phone, live_server.url, table_code)
    # The worker is installed and the round's pages are kept before the Wi-Fi drops.
    phone.wait_for_selector("#table-app[data-offline=ready]", state="attached", timeout=30000)
    manifest = phone.get_attribute("link[rel=manifest]", "href")
    assert manifest == "/table/manifest.webmanifest"

    phone.context.set_offline(True)
    entered = enter_round_offline(phone, section, 1, reload_after=2)
    assert phone.get_attribute("#sync-status", "data-count") == "4"  # 2 results, 2 confirms
    assert phone.get_attribute("#sync-status", "data-state") == "waiting"
    assert phone.locator("#pending-list li").count() == 0  # the boards say it: no cards
    screenshot(phone, "table-offline-round-pending")
    phone.click("#next-round")  # the next round's pages were kept too
    entered += enter_round_offline(phone, section, 2)
    assert phone.get_attribute("#sync-status", "data-count") == "8"
    screenshot(phone, "table-offline-next-round-pending")
    phone.reload()
    phone.wait_for_selector("#sync-status[data-count='8']")
    assert not Result.objects.filter(section=section).exists()
    queued = phone.evaluate(READ_QUEUE)
    queued = json.loads(queued)
    assert [(q["kind"], q["board"]) for q in queued] == [
        (kind, str(number)) for _, number, _c in entered for kind in ("result", "confirm")
    ]

    phone.context.set_offline(False)
    phone.wait_for_selector("#sync-status[data-state=saved]", timeout=30000)
    # The round page, drawn offline, now says its boards are saved, not waiting.
    phone.wait_for_selector(".local-state[data-state=saved]")
    assert phone.locator(".local-state[data-state=waiting]").count() == 0
    screenshot(phone, "table-back-online-all-sent")

    def stored():
        rows = Result.objects.filter(section=section).select_related("board")
        return sorted((r.round, r.board.number, r.ns_score, r.confirmed, r.status) for r in rows)

    expected = sorted(
        (
            round_,
            number,
            expected_score(section.session.boards.get(number=number), c),
            True,
            ResultStatus.OK,
        )
        for round_, number, c in entered
    )
    assert stored() == expected
    assert sorted(
        Result.objects.filter(section=section).values_list("idempotency_key", flat=True)
    ) == sorted(q["key"] for q in queued if q["kind"] == "result")

    # The same queue sent again, twice (a lost reply, the worker and the page both sending):
    # the server keeps each idempotency key once.
    for _ in range(2):
        assert phone.evaluate(REPLAY, queued) == 8
        for _attempt in range(40):  # table.js sends the queue every few seconds
            if phone.evaluate(QUEUE_LENGTH) == 0:
                break
            phone.wait_for_timeout(500)
        assert phone.evaluate(QUEUE_LENGTH) == 0
        assert stored() == expected


def test_a_result_differing_from_the_directors_is_shown_as_a_conflict(live_server, new_page):
    section, phone = offline_on_board_one(live_server, new_page)
    c = THREE_NT | {"made": "+1"}
    save_offline(phone, c)
    # Meanwhile the director stores another result for the board.
    from django.contrib.auth import get_user_model

    from tournaments.services.table import entry

    director = get_user_model().objects.create_user("td", password="x")
    entry.submit_result(
        user=director,
        section=section,
        table=TABLE,
        round=1,
        board=1,
        contract="3NT",
        declarer="S",
        tricks=9,
        idempotency_key="director",
    )
    phone.context.set_offline(False)
    phone.wait_for_selector("#entry-status[data-state=conflict]", timeout=30000)
    phone.wait_for_selector("#pending-list li[data-state=conflict]")
    assert "árbitro" in phone.inner_text("#entry-status")  # the table says árbitro in es
    screenshot(phone, "table-offline-conflict")
    ok = Result.objects.get(section=section, status=ResultStatus.OK)
    assert (ok.idempotency_key, ok.tricks) == ("director", 9)  # not overwritten
    assert Result.objects.filter(section=section, status=ResultStatus.CONFLICT).count() == 1


# This page's own posts fail from now on, as if its requests were lost: only another sender
# (a second tab, or the service worker's Background Sync) can deliver the queue.
THIS_PAGE_CANNOT_POST = """() => { const send = window.fetch;
  window.fetch = (url, options) => options && options.method === "POST"
    ? Promise.reject(new TypeError("Failed to fetch")) : send(url, options); }"""


def test_a_result_sent_by_another_sender_shows_as_saved_on_the_board(live_server, new_page):
    """The queue is shared by the table's tabs and the service worker: whichever sends a
    result first, the board that showed it as waiting turns into the saved board."""
    section, phone = offline_on_board_one(live_server, new_page)
    c = choice(TABLE, 1, 1)
    tap_offline(phone, c)
    phone.click("#save-button")
    phone.wait_for_selector("#entry-status[data-state=waiting]")
    phone.evaluate(THIS_PAGE_CANNOT_POST)
    phone.context.set_offline(False)

    other = phone.context.new_page()  # the same table in a second tab sends the queue
    other.goto(f"{live_server.url}/table/play/")
    other.wait_for_selector("#sync-status[data-state=saved]", timeout=30000)
    assert Result.objects.filter(section=section, round=1, board__number=1).count() == 1

    phone.wait_for_selector("#board-screen[data-state=saved] #confirm-button", timeout=15000)
    assert phone.locator("#entry-status[data-state=waiting]").count() == 0
    screenshot(phone, "table-saved-by-another-sender")


# The saved board's first answer is the service worker's cached copy of the board (the empty
# form kept for the Wi-Fi drop), as when the worker's own request fails as the network comes
# back: it must not put the form back over the stored result.
FIRST_BOARD_ANSWER_IS_THE_CACHED_FORM = """(boardUrl) => { const send = window.fetch;
  let served = false;
  window.fetch = (url, options) => {
    const path = new URL(url, location.href).pathname;
    if (!served && path === boardUrl && !(options && options.method === "POST")) {
      served = true;
      window.askedFresh = Boolean(options && options.headers &&
                                  options.headers[OfflineQueue.FRESH_HEADER]);
      return caches.open(OfflineQueue.CACHE).then(c => c.match(path, {ignoreVary: true}))
        .then(hit => hit || Promise.reject(new Error("the board was not kept")));
    }
    return send(url, options);
  }; }"""

# Offline, the worker answers a board from its cache, but not a request marked fresh.
ASK_THE_WORKER = """(boardUrl) => Promise.all([
  fetch(boardUrl).then(r => r.text()).then(t => t.includes('id="board-screen"'), () => "error"),
  fetch(boardUrl, {headers: {[OfflineQueue.FRESH_HEADER]: "1"}}).then(() => "answered",
                                                                      () => "error")])"""

# What the worker keeps of the board now: the saved board, for the next drop.
KEPT_COPY_IS_SAVED = """(boardUrl) => caches.open(OfflineQueue.CACHE)
  .then(c => c.match(boardUrl, {ignoreVary: true})).then(r => r ? r.text() : "")
  .then(t => t.includes('data-state="saved"'))"""


def test_a_stored_result_never_turns_back_into_the_kept_form(live_server, new_page):
    """Back online the result is sent; the board shown after it is the server's saved board
    even when the first answer for it is the empty form the worker kept."""
    section, phone = offline_on_board_one(live_server, new_page)
    board_url = phone.locator("#board-screen").get_attribute("data-url")
    assert phone.evaluate(ASK_THE_WORKER, board_url) == [True, "error"]

    tap_offline(phone, choice(TABLE, 1, 1))
    phone.click("#save-button")
    phone.wait_for_selector("#entry-status[data-state=waiting]")
    phone.evaluate(FIRST_BOARD_ANSWER_IS_THE_CACHED_FORM, board_url)
    phone.context.set_offline(False)

    phone.wait_for_selector("#board-screen[data-state=saved] #confirm-button", timeout=20000)
    assert phone.locator("#result-form").count() == 0
    assert phone.evaluate("window.askedFresh") is True
    assert Result.objects.filter(section=section, round=1, board__number=1).count() == 1
    # The worker's copy was replaced by the saved board: the next drop shows it as stored.
    deadline = time.monotonic() + 10
    while not phone.evaluate(KEPT_COPY_IS_SAVED, board_url) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert phone.evaluate(KEPT_COPY_IS_SAVED, board_url)


def test_offline_the_score_shows_and_next_never_goes_back_to_a_played_board(live_server, new_page):
    """The round page loads online (its boards' pages kept, each with a "next" drawn then);
    board 1 is saved online, the Wi-Fi drops, board 2 is tapped in: the device shows its
    score at once, East-West see it before they confirm, and "Next" no longer offers board 1
    (played): the round page is the way on."""
    section, phone = signed_in_phone(live_server, new_page)
    first, second = plan.slot_for(section.movement, 1, TABLE).boards
    phone.click(f"a[data-board-key='1-{first}']")
    c = choice(TABLE, 1, first)
    fill_board(phone, c, expected_score(section.session.boards.get(number=first), c))
    phone.click("#save-button")
    confirm_and_check(phone)
    assert phone.get_attribute("#next-board", "href").endswith(f"/1/{second}/")
    phone.context.set_offline(True)
    phone.click("#next-board")
    phone.wait_for_selector(f"#board-screen[data-board='{second}'] #result-form")
    c = choice(TABLE, 1, second)
    if c["level"] == "PASS":
        c = THREE_NT
    points = expected_score(section.session.boards.get(number=second), c)
    tap_offline(phone, c)
    # worked out on the phone: the server cannot be asked
    phone.wait_for_selector(f"#preview .preview-score[data-points='{abs(points)}']")
    side = "NS" if points > 0 else "EW"
    assert phone.inner_text("#preview .score-side") == side
    phone.click("#save-button")
    phone.wait_for_selector("#entry-status[data-state=waiting]")
    phone.wait_for_selector("#offline-score .preview-score")
    assert phone.get_attribute("#offline-score .preview-score", "data-points") == str(abs(points))
    screenshot(phone, "table-offline-score-before-confirm")
    phone.wait_for_selector("#offline-nav")
    assert not phone.locator("#next-board").is_visible()  # board 1 was played: no way back
    assert phone.locator("#round-link").is_visible()
    phone.click("#offline-confirm-button")
    phone.context.set_offline(False)
    phone.wait_for_selector("#sync-status[data-state=saved]", timeout=30000)
    assert sorted(
        Result.objects.filter(section=section, table=TABLE).values_list("board__number", "ns_score")
    ) == sorted(
        [
            (
                first,
                expected_score(section.session.boards.get(number=first), choice(TABLE, 1, first)),
            ),
            (second, points),
        ]
    )


def test_offline_a_waiting_result_is_locked_and_changed_only_by_an_explicit_correction(
    live_server, new_page
):
    """Saved offline, the pad is locked on the waiting result; "Correct the result" opens it,
    and saving a different result asks first, showing the old one struck and the new one:
    "Keep" leaves the queue as it was, "Replace" swaps the waiting result and asks East-West
    to confirm again. Back online exactly the correction is stored, once."""
    section, phone = offline_on_board_one(live_server, new_page)
    first = THREE_NT
    save_offline(phone, first)
    phone.wait_for_selector("#result-form.locked")
    assert phone.locator("#result-form input[name=level][value='3']").is_disabled()
    assert not phone.locator("#save-button").is_visible()  # locked: nothing to save again
    phone.click("#offline-confirm-button")
    phone.wait_for_selector("#offline-confirm", state="hidden")
    phone.click("#offline-correct")
    phone.wait_for_selector("#result-form:not(.locked)")
    tap_offline(phone, first | {"made": "+1"})
    phone.click("#save-button")
    phone.wait_for_selector("#offline-replace:not([hidden])")
    old, new = phone.inner_text("#replace-old"), phone.inner_text("#replace-new")
    assert "+400" in old and "+430" in new and "=" in old and "+1" in new
    screenshot(phone, "table-offline-replace-asks")
    phone.click("#replace-no")
    phone.wait_for_selector("#result-form.locked")
    assert phone.locator("#result-form input[name=made][value='=']").is_checked()
    queued = json.loads(phone.evaluate(READ_QUEUE))
    assert [(q["kind"], q["key"]) for q in queued][0][0] == "result" and len(queued) == 2
    kept_key = queued[0]["key"]
    phone.click("#offline-correct")
    tap_offline(phone, first | {"made": "+1"})
    phone.click("#save-button")
    phone.click("#replace-yes")
    phone.wait_for_selector("#offline-confirm:not([hidden])")  # East-West confirm again
    assert "+430" in phone.inner_text("#offline-score")
    queued = json.loads(phone.evaluate(READ_QUEUE))
    results = [q for q in queued if q["kind"] == "result"]
    assert len(results) == 1 and results[0]["key"] != kept_key
    screenshot(phone, "table-offline-replaced")
    phone.click("#offline-confirm-button")
    phone.context.set_offline(False)
    phone.wait_for_selector("#sync-status[data-state=saved]", timeout=30000)
    rows = Result.objects.filter(section=section, table=TABLE)
    assert [(r.board.number, r.ns_score, r.confirmed) for r in rows] == [(1, 430, True)]

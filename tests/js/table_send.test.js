// Sending from the table (tournaments/static/tournaments/table_send.js): saving queues the
// result once, a locked result is never silently replaced, the answers land on the screen.
// Run: node --test tests/js/
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { page, queued } = require("./page.js");

const FORM = `<div id="board-screen" data-round="1" data-board="5" data-state="new"
    data-vulnerability="" data-boards="4,5" data-board-url="/table/play/1/0/">
  <form id="result-form"><input type="hidden" name="round" value="1">
    <input type="hidden" name="board" value="5"><input type="hidden" name="idempotency_key">
    <input type="radio" name="level" value="3" checked><input type="radio" name="strain"
      value="NT" checked><input type="radio" name="declarer" value="S" checked>
    <input type="radio" name="made" value="=" checked><p id="entry-status"></p></form>
</div>`;

function sender() {
  const p = page(FORM, ["offline_queue", "offline_send", "table_screen", "table_send"]);
  const added = [];
  const asked = [];
  Object.assign(p.T, {
    queue: { addResult: async (fields) => { added.push(fields); } },
    refresh: async () => {}, flush: async () => {}, render: () => {}, resultUrl: "/table/result/",
    askToReplace: (form, waiting, params, send) => { asked.push([waiting.key, params]); return send; },
  });
  return { ...p, added, asked };
}

function save(window, document) {
  const event = new window.Event("submit", { cancelable: true });
  Object.defineProperty(event, "target", { value: document.getElementById("result-form") });
  return event;
}

test("saving queues the result with a new key and says it is being sent", async () => {
  const { T, window, document, added } = sender();
  const event = save(window, document);
  T.submit(event);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.ok(event.defaultPrevented);
  assert.equal(added.length, 1);
  assert.equal(added[0].key, "key-1");
  assert.equal(added[0].round, "1");
  assert.equal(added[0].board, "5");
  assert.match(added[0].body, /idempotency_key=key-1/);
  assert.equal(document.getElementById("entry-status").dataset.state, "waiting");
});

test("a result waiting to be sent is not replaced by another tap, only by a correction",
  async () => {
    const { T, window, document, added, asked } = sender();
    const body = "round=1&board=5&level=3&strain=NT&declarer=S&made=%3D";
    T.entries = [queued({ key: "q", board: "5", body, content: T.Q.content(body) })];
    T.submit(save(window, document)); // locked: a second tap sends nothing more
    assert.equal(added.length, 0);
    T.correcting = "q";
    T.submit(save(window, document)); // "corrected" to the very same result: nothing
    assert.equal(added.length, 0);
    assert.equal(T.correcting, null);
    T.correcting = "q";
    document.querySelector("input[name=made]").value = "+1";
    T.submit(save(window, document)); // a different result: asked first, not sent
    assert.equal(added.length, 0);
    assert.equal(asked.length, 1);
    assert.equal(asked[0][0], "q");
    assert.equal(asked[0][1].get("made"), "+1");
  });

test("the answers: saved is remembered for Next, held shows why, invalid shows the errors",
  () => {
    const { T, document } = sender();
    const adds = [];
    T.saved = { add: (round, board) => adds.push(`${round}-${board}`) };
    T.swapInSaved = () => {};
    T.answered({ entry: queued({ key: "a", board: "4" }), outcome: { state: "saved" } });
    assert.deepEqual(adds, ["1-4"]); // another board: remembered, the screen left alone
    T.answered({ entry: queued({ key: "b", board: "5" }),
      outcome: { state: "waiting", held: true, message: "Round 1 is not open yet." } });
    const status = document.getElementById("entry-status");
    assert.equal(status.dataset.state, "waiting");
    assert.equal(status.textContent, "Round 1 is not open yet.");
    T.answered({ entry: queued({ key: "c", board: "5" }),
      outcome: { state: "invalid", errors: { made: ["Choose the result."] } } });
    assert.equal(status.dataset.state, "invalid");
    assert.equal(document.querySelector("#result-form .js-error li").textContent,
      "Choose the result.");
    T.answered({ entry: queued({ key: "d", board: "5" }), outcome: { state: "saved",
      url: "/table/play/1/5/" } });
    assert.equal(document.getElementById("board-screen").dataset.state, "saved");
  });

test("an opponents' tap queued while its result was being sent keeps the result's id", async () => {
  const confirms = [];
  const p = page(FORM, ["offline_queue", "offline_send", "table_screen", "table_send"]);
  const S = p.T;
  Object.assign(S, {
    refresh: async () => {}, render: () => {}, swapInSaved: () => {}, askForSync: () => {},
    queue: {
      // the flush that was running sent the result: stored as row 42
      flush: async () => [{ entry: queued({ key: "r", board: "5" }),
        outcome: { state: "saved", pk: 42, url: "/table/play/1/5/" } }],
      addConfirm: async (fields) => { confirms.push(fields); },
    },
  });
  await S.flush();
  S.queue.flush = async () => [];
  await S.queueConfirm({ round: "1", board: "5", after: "r" });
  assert.equal(confirms.length, 1);
  assert.equal(confirms[0].pk, 42); // not null: the next flush sends it, not drops it
  assert.equal(confirms[0].after, "r");
});

test("a refused try of a board is dropped by the next try and by its stored result", async () => {
  const { T, window, document, added } = sender();
  const removed = [];
  T.queue.remove = async (key) => { removed.push(key); };
  T.entries = [queued({ key: "x", board: "5", state: "invalid", message: "Not the lead." }),
    queued({ key: "y", board: "4", state: "refused" })];
  T.submit(save(window, document));
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(removed, ["x"]); // board 4's own stays for the players
  assert.equal(added.length, 1);
  T.swapInSaved = () => {};
  T.entries.push(queued({ key: "z", board: "4", state: "invalid" }));
  T.answered({ entry: queued({ key: "w", board: "4" }), outcome: { state: "saved" } });
  assert.deepEqual(removed, ["x", "y", "z"]);
});

test("a result refused for its lead opens the pad on the lead", () => {
  const p = page(FORM, ["offline_queue", "offline_send", "table_pad", "table_screen", "table_send"]);
  p.T.answered({ entry: queued({ key: "c", board: "5" }),
    outcome: { state: "invalid", errors: { lead_rank: ["East does not hold that card."] } } });
  assert.equal(p.document.getElementById("result-form").dataset.errorStep, "lead");
  assert.equal(p.window.TablePad.stepOf("declarer"), "declarer");
  assert.equal(p.window.TablePad.stepOf("level"), "contract");
});

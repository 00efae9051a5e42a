// What the table's screen says about the queue (tournaments/static/tournaments/table_screen.js):
// the badge, the list, the round page's boards. Run: node --test tests/js/
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { page, queued } = require("./page.js");

const ROUND = `<span id="sync-status"></span><ul id="pending-list" hidden></ul>
  <section id="round" data-round="1">
    <a data-board-key="1-1"><span class="badge badge-none local-state">To enter</span></a>
    <a data-board-key="1-2" class="done"><span class="badge badge-valid">Saved</span></a>
  </section><section id="moves" hidden></section>`;

function screen() {
  const p = page(ROUND, ["offline_queue", "table_screen"]);
  // the board screen's and the sender's parts are other modules'
  Object.assign(p.T, { noticeSentElsewhere() {}, renderBoard() {}, renderNext() {} });
  return p;
}

test("the badge counts what waits, and says when something needs the players", () => {
  const { T, document } = screen();
  T.render();
  const badge = document.getElementById("sync-status");
  assert.equal(badge.dataset.state, "saved");
  assert.equal(badge.textContent, "Every result is saved.");
  T.entries = [queued({ key: "a" }), queued({ key: "b", kind: "confirm", after: "a" })];
  T.render();
  assert.equal(badge.dataset.state, "waiting");
  assert.equal(badge.dataset.count, "2");
  assert.equal(badge.textContent, "Waiting to be sent: 2");
  T.entries.push(queued({ key: "c", board: "3", state: "refused", message: "Signed out." }));
  T.render();
  assert.equal(badge.dataset.state, "refused");
});

test("the list holds what needs the players, saying why; only a refused one can be discarded", () => {
  const { T, document } = screen();
  const removed = [];
  T.queue = { remove: async (key) => { removed.push(key); } };
  T.refresh = async () => {};
  T.entries = [queued({ key: "a" }),
    queued({ key: "h", board: "3", round: "2", message: "Round 2 is not open yet." }),
    queued({ key: "r", board: "4", state: "invalid", message: "No declarer." })];
  T.render();
  const items = [...document.querySelectorAll("#pending-list li")];
  assert.deepEqual(items.map((li) => li.querySelector("span").textContent), [
    "Board 3: Round 2 is not open yet.", "Board 4: Please correct it. No declarer."]);
  assert.deepEqual(items.map((li) => !!li.querySelector("button")), [false, true]);
  items[1].querySelector("button").click();
  assert.deepEqual(removed, ["r"]);
  assert.equal(document.getElementById("pending-list").hidden, false);
});

test("the round page: a board waiting is marked, and saved once sent; the moves then show",
  () => {
    const { T, document } = screen();
    T.entries = [queued({ key: "a", board: "1" })];
    T.render();
    const badge = document.querySelector("[data-board-key='1-1'] .local-state");
    assert.equal(badge.dataset.state, "waiting");
    assert.equal(badge.textContent, "Waiting");
    assert.equal(document.getElementById("moves").hidden, false); // every board in or waiting
    T.entries = [];
    T.render();
    assert.equal(badge.dataset.state, "saved");
    assert.ok(document.querySelector("[data-board-key='1-1']").classList.contains("done"));
  });

test("the saved boards the device remembers follow the server's round page", () => {
  const { T, window } = screen();
  const memory = new Map();
  const storage = { getItem: (k) => memory.get(k) || null, setItem: (k, v) => memory.set(k, v) };
  window.eval(require("node:fs").readFileSync(require("node:path").join(__dirname, "..", "..",
    "tournaments", "static", "tournaments", "table_round.js"), "utf8"));
  T.saved = new window.TableRound.Saved(storage, "7");
  T.saved.add(1, 1); // remembered, but the server's page says board 1 is not saved
  T.rememberRound();
  assert.ok(!T.saved.has(1, 1) && T.saved.has(1, 2));
});

test("a round page from the worker's copy keeps what the device saw saved, and shows it", () => {
  const { T, window, document } = screen();
  const memory = new Map();
  const storage = { getItem: (k) => memory.get(k) || null, setItem: (k, v) => memory.set(k, v) };
  window.eval(require("node:fs").readFileSync(require("node:path").join(__dirname, "..", "..",
    "tournaments", "static", "tournaments", "table_round.js"), "utf8"));
  T.saved = new window.TableRound.Saved(storage, "7");
  T.saved.add(1, 1); // sent after the copy of the round page was kept
  T.app.dataset.page = "kept";
  T.rememberRound();
  assert.ok(T.saved.has(1, 1) && !T.saved.has(1, 2)); // nothing reset from the old page
  T.render();
  const badge = document.querySelector("[data-board-key='1-1'] .local-state");
  assert.equal(badge.dataset.state, "saved");
  assert.equal(badge.textContent, "Saved");
  assert.equal(document.getElementById("moves").hidden, false);
});

test("on a board screen the list holds only what needs the players", () => {
  const { T, document } = page(`<ul id="pending-list" hidden></ul>
    <div id="board-screen" data-round="1" data-board="2"></div>`, ["offline_queue", "table_screen"]);
  Object.assign(T, { noticeSentElsewhere() {}, renderBoard() {}, renderNext() {} });
  T.entries = [queued({ key: "a" }), queued({ key: "b", kind: "confirm", after: "a" })];
  T.render();
  assert.equal(document.getElementById("pending-list").hidden, true);
  T.entries.push(queued({ key: "r", board: "4", state: "invalid", message: "No declarer." }));
  T.render();
  const items = [...document.querySelectorAll("#pending-list li")];
  assert.deepEqual(items.map((li) => li.dataset.state), ["invalid"]);
});

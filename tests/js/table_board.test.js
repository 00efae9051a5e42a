// The board screen (tournaments/static/tournaments/table_board.js) and the locked pad of a
// result waiting to be sent (table_lock.js). Run: node --test tests/js/
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { page, queued } = require("./page.js");

function pick(name, values) {
  return values.map((v) => `<label class="pick"${name === "made" ? ` data-made="${v}"` : ""}>` +
    `<input type="radio" name="${name}" value="${v}"><span>${v}</span></label>`).join("");
}

const BOARD = `<div id="board-screen" data-round="1" data-board="5" data-state="new"
    data-vulnerability="NS" data-boards="4,5,6" data-board-url="/table/play/1/0/">
  <form id="result-form"><input type="hidden" name="round" value="1">
    <input type="hidden" name="board" value="5"><input type="hidden" name="idempotency_key">
    <fieldset class="picks levels">${pick("level", ["1", "2", "3", "4", "PASS"])}</fieldset>
    <fieldset class="picks strains not-pass">${pick("strain", ["C", "D", "H", "S", "NT"])}</fieldset>
    <fieldset class="picks doubles not-pass">${pick("double", ["", "X", "XX"])}</fieldset>
    <fieldset class="picks seats not-pass">${pick("declarer", ["N", "E", "S", "W"])}</fieldset>
    <fieldset class="picks made not-pass">${pick("made", ["=", "+1", "+3", "-1", "-13"])}</fieldset>
    <div class="preview" id="preview"></div><button id="save-button">Save</button>
    <p id="entry-status"></p></form>
  <p id="offline-score" hidden></p><button id="offline-correct" hidden>Correct</button>
  <div id="offline-replace" hidden><s id="replace-old"></s><strong id="replace-new"></strong>
    <button id="replace-yes">Replace</button><button id="replace-no">Keep</button></div>
  <p id="offline-confirm" hidden><button id="offline-confirm-button">EW confirm</button></p>
  <p id="offline-nav" hidden><a id="next-board" hidden>Next</a><a id="round-link">Round</a></p>
</div>`;

const SCRIPTS = ["offline_queue", "table_score", "table_round", "table_screen", "table_board",
  "table_lock"];

function board() {
  const p = page(BOARD, SCRIPTS);
  const memory = new Map();
  p.T.saved = new p.window.TableRound.Saved(
    { getItem: (k) => memory.get(k) || null, setItem: (k, v) => memory.set(k, v) }, "7");
  p.T.noticeSentElsewhere = () => {};
  return p;
}

function tap(document, name, value) {
  const input = document.querySelector(`#result-form input[name=${name}][value='${value}']`);
  input.checked = true;
}

const BODY = "round=1&board=5&level=3&strain=NT&double=&declarer=S&made=%3D&idempotency_key=q";

test("the pad's score is worked out here, vulnerability included", () => {
  const { T, document } = board();
  const form = document.getElementById("result-form");
  for (const [name, value] of [["level", "4"], ["strain", "S"], ["declarer", "N"], ["made", "+1"]]) {
    tap(document, name, value);
  }
  T.showPadScore(form);
  const score = document.querySelector("#preview .preview-score");
  assert.equal(score.dataset.points, "650"); // 4S+1 by North, NS vulnerable
  assert.equal(score.textContent, "NS +650");
  tap(document, "declarer", "E");
  T.showPadScore(form);
  assert.equal(document.querySelector("#preview .preview-score").textContent, "EW +450");
});

test("Next goes to a board not played: neither saved here before nor waiting", () => {
  const { T, document } = board();
  const next = document.getElementById("next-board");
  T.renderNext();
  assert.ok(!next.hidden && next.getAttribute("href") === "/table/play/1/4/");
  assert.equal(next.textContent, "Next: board 4");
  T.saved.add(1, 4); // saved online earlier: the kept page still offers it
  T.renderNext();
  assert.equal(next.getAttribute("href"), "/table/play/1/6/");
  T.entries = [queued({ key: "q6", board: "6" })];
  T.renderNext();
  assert.ok(next.hidden); // every other board played: the round page is the way on
  assert.ok(!document.getElementById("round-link").classList.contains("secondary"));
});

test("a result waiting to be sent: its score for East-West, the pad locked on it", () => {
  const { T, document } = board();
  T.entries = [queued({ key: "q", board: "5", body: BODY, content: "c" })];
  T.renderBoard();
  assert.equal(document.getElementById("offline-score").hidden, false);
  // 3NT= by South, NS vulnerable
  assert.equal(document.querySelector("#offline-score .preview-score").textContent, "NS +600");
  const form = document.getElementById("result-form");
  assert.ok(form.classList.contains("locked"));
  assert.ok(document.querySelector("input[name=level][value='3']").checked);
  assert.ok(document.querySelector("input[name=level][value='3']").disabled);
  assert.equal(document.getElementById("offline-correct").hidden, false);
  assert.equal(document.getElementById("offline-confirm").hidden, false);
  assert.equal(document.getElementById("entry-status").textContent, "Waiting to send.");
  T.correcting = "q"; // "Correct the result"
  T.renderBoard();
  assert.ok(!form.classList.contains("locked"));
  assert.ok(!document.querySelector("input[name=level][value='3']").disabled);
  assert.equal(document.getElementById("offline-confirm").hidden, true);
  assert.equal(document.getElementById("entry-status").textContent, "Change it and save.");
});

test("replacing a waiting result asks first, showing both; Keep changes nothing", async () => {
  const { T, document, window } = board();
  const sent = [];
  const send = async () => { sent.push("sent"); };
  T.render = () => {};
  const waiting = queued({ key: "q", board: "5", body: BODY });
  const correction = new window.URLSearchParams(BODY.replace("made=%3D", "made=%2B1"));
  T.askToReplace(document.getElementById("result-form"), waiting, correction, send);
  assert.equal(document.getElementById("offline-replace").hidden, false);
  assert.equal(document.getElementById("replace-old").textContent, "3NT= S · NS +600");
  assert.equal(document.getElementById("replace-new").textContent, "3NT+1 S · NS +630");
  document.getElementById("replace-no").click();
  assert.deepEqual(sent, []);
  assert.equal(document.getElementById("offline-replace").hidden, true);
  T.askToReplace(document.getElementById("result-form"), waiting, correction, send);
  document.getElementById("replace-yes").click();
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(sent, ["sent"]);
  assert.equal(T.replaced, "q");
});

test("only the results a level can make are offered", () => {
  const { T, document } = board();
  tap(document, "level", "4");
  T.fitToLevel(document.getElementById("result-form"));
  const shown = [...document.querySelectorAll("[data-made]")].filter((l) => !l.hidden)
    .map((l) => l.dataset.made);
  assert.deepEqual(shown, ["=", "+1", "+3", "-1"]); // 4-level: at most +3, at worst -10
});

const SAVED = `<div id="board-screen" data-round="1" data-board="5" data-state="saved"
    data-vulnerability="NS" data-boards="4,5,6" data-board-url="/table/play/1/0/">
  <p><span id="saved-result-line">3NT = S</span></p><p id="saved-score">NS +600</p>
  <p id="entry-status"></p>
  <div id="saved-correction" hidden><s id="correction-old"></s><strong id="correction-new"></strong>
    <button id="correction-confirm">EW confirm</button></div>
  <details class="table-action" id="correct-box"><summary>Correct</summary></details>
  <form class="confirm-form" data-result="41"><button>EW confirm</button></form>
  <p id="saved-nav" hidden><a id="next-board">Next</a></p>
</div>`;

function savedBoard() {
  const p = page(SAVED, SCRIPTS);
  p.T.noticeSentElsewhere = () => {};
  return p;
}

test("a stored board corrected offline: stored and correction side by side, no confirm of the old",
  () => {
    const { T, document } = savedBoard();
    T.entries = [queued({ key: "c", kind: "correct", board: "5", pk: "41",
      body: BODY.replace("made=%3D", "made=%2B1") })];
    T.renderBoard();
    assert.equal(document.getElementById("saved-correction").hidden, false);
    assert.equal(document.getElementById("correction-old").textContent, "3NT = S · NS +600");
    assert.equal(document.getElementById("correction-new").textContent, "3NT+1 S · NS +630");
    assert.equal(document.querySelector(".confirm-form").hidden, true);
    assert.equal(document.getElementById("entry-status").textContent, "Correction waiting.");
    T.entries = [];
    T.renderBoard();
    assert.equal(document.getElementById("saved-correction").hidden, true);
    assert.equal(document.querySelector(".confirm-form").hidden, false);
  });

test("East-West's tap kept offline on a stored board: the way on shows", () => {
  const { T, document } = savedBoard();
  T.renderBoard();
  assert.equal(document.getElementById("saved-nav").hidden, true);
  T.entries = [queued({ key: "t", kind: "confirm", board: "5", pk: "41" })];
  T.renderBoard();
  assert.equal(document.getElementById("saved-nav").hidden, false);
  assert.equal(document.querySelector(".confirm-form").hidden, true);
});

test("the worker's copy of a board saved since is not offered for entry again", () => {
  const { T, document } = board();
  document.getElementById("board-screen").insertAdjacentHTML("beforeend",
    '<p id="offline-saved" hidden>Saved.</p>');
  T.saved.add(1, 5);
  T.renderBoard(); // a page from the server: its form is the truth
  assert.equal(document.getElementById("result-form").hidden, false);
  T.app.dataset.page = "kept";
  T.renderBoard();
  assert.equal(document.getElementById("result-form").hidden, true);
  assert.equal(document.getElementById("offline-saved").hidden, false);
  assert.equal(document.getElementById("offline-nav").hidden, false);
});

test("East-West confirm the correction kept offline; after a tap, no correction is offered",
  () => {
    const { T, document } = savedBoard();
    const correction = queued({ key: "c", kind: "correct", board: "5", pk: "41",
      body: BODY.replace("made=%3D", "made=%2B1") });
    T.entries = [correction];
    T.renderBoard();
    assert.equal(document.getElementById("correction-confirm").hidden, false);
    assert.equal(document.getElementById("saved-nav").hidden, true); // East-West first
    T.entries = [correction, queued({ key: "t", kind: "confirm", board: "5", after: "c" })];
    T.renderBoard();
    assert.equal(document.getElementById("correction-confirm").hidden, true);
    assert.equal(document.getElementById("saved-nav").hidden, false);
    const stored = savedBoard();
    stored.T.entries = [queued({ key: "t", kind: "confirm", board: "5", pk: "41" })];
    stored.T.renderBoard();
    assert.equal(stored.document.getElementById("correct-box").hidden, true);
  });

test("a result refused once the Wi-Fi returned comes back on the pad, on the wrong step", () => {
  const { T, document } = board();
  T.entries = [queued({ key: "r", board: "5", state: "invalid", message: "Not East's card.",
    fields: ["lead_rank"], body: BODY })];
  T.renderBoard();
  const form = document.getElementById("result-form");
  assert.ok(form.querySelector("input[name=level][value='3']").checked);
  assert.ok(form.querySelector("input[name=made][value='=']").checked);
  assert.equal(document.getElementById("entry-status").textContent, "Please correct it. Not East's card.");
});

// The table device's offline queue (tournaments/static/tournaments/offline_queue.js) against
// fake-indexeddb and a fake server that stores a result once per idempotency key, as
// services/entry.py does. Run: node --test tests/js/
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { IDBFactory } = require("fake-indexeddb");
const OfflineQueue = require("../../tournaments/static/tournaments/offline_send.js");

let counter = 0;
function fresh() {
  counter += 1;
  return OfflineQueue.open(new IDBFactory(), `test-${counter}`);
}

function body(board, made, key) {
  return new URLSearchParams({ round: "1", board: String(board), level: "3", strain: "NT",
    declarer: "S", made, idempotency_key: key }).toString();
}

function result(board, made, key) {
  const b = body(board, made, key);
  return { table: 7, round: 1, board, key, url: "/table/result/", body: b,
    content: OfflineQueue.content(b) };
}

/* A server like entry.submit_result: one row per key; a different result for a board that
 * has one is a conflict; confirm marks a stored row. ``online`` false: no answer at all. */
function server() {
  const rows = new Map(); // key → row
  const s = { online: true, posts: [], rows,
    stored() { return [...rows.values()].filter((r) => r.status === "ok"); } };
  s.post = async (url, text) => {
    if (!s.online) throw new TypeError("Failed to fetch");
    s.posts.push(url);
    const confirm = url.match(/^\/table\/confirm\/(\d+)\/$/);
    if (confirm) {
      const row = [...rows.values()].find((r) => r.pk === Number(confirm[1]) && r.status === "ok");
      if (!row) return { status: 404, data: {} };
      row.confirmed = true;
      return { status: 200, data: { confirmed: true, result: row.pk } };
    }
    const fields = new URLSearchParams(text);
    const key = fields.get("idempotency_key");
    if (!fields.get("made")) return { status: 400, data: { errors: { made: ["Missing."] } } };
    if (rows.has(key)) {
      const row = rows.get(key);
      return { status: 200, data: { outcome: row.status === "ok" ? "duplicate" : "conflict", result: row.pk } };
    }
    const board = fields.get("board");
    const made = fields.get("made");
    const stored = [...rows.values()].find((r) => r.board === board && r.status === "ok");
    const status = stored && stored.made !== made ? "conflict" : "ok";
    if (stored && status === "ok") return { status: 200, data: { outcome: "duplicate", result: stored.pk } };
    const row = { pk: rows.size + 1, key, board, made, status, confirmed: false };
    rows.set(key, row);
    return { status: status === "ok" ? 201 : 200,
      data: { outcome: status === "ok" ? "created" : "conflict", result: row.pk } };
  };
  return s;
}

test("results wait offline, keep their order, and are sent once the network is back", async () => {
  const queue = await fresh();
  const net = server();
  net.online = false;
  for (const board of [1, 2, 3]) await queue.addResult(result(board, "=", `k${board}`));
  assert.equal(await queue.pending(7), 3);
  assert.deepEqual(await queue.flush("7", net.post), []);
  assert.equal(await queue.pending(7), 3, "nothing is lost without an answer");
  net.online = true;
  const answered = await queue.flush("7", net.post);
  assert.deepEqual(answered.map((a) => a.entry.board), ["1", "2", "3"]);
  assert.ok(answered.every((a) => a.outcome.state === OfflineQueue.SAVED));
  assert.equal(await queue.pending(7), 0);
  assert.deepEqual(net.stored().map((r) => r.board), ["1", "2", "3"]);
});

test("a queue replayed twice is stored once (the idempotency key)", async () => {
  const net = server();
  const first = await fresh();
  await first.addResult(result(1, "+1", "same-key"));
  const copy = (await first.list(7))[0];
  await first.flush("7", net.post);
  // The same action sent again (a lost reply, the worker and the page both syncing).
  const again = await fresh();
  await again.addResult(copy);
  const answered = await again.flush("7", net.post);
  assert.equal(answered[0].outcome.state, OfflineQueue.SAVED);
  assert.equal(net.posts.length, 2);
  assert.equal(net.rows.size, 1);
});

test("the same result tapped twice keeps one key; a different one replaces it while waiting", async () => {
  const queue = await fresh();
  const a = await queue.addResult(result(4, "=", "first"));
  const b = await queue.addResult(result(4, "=", "second"));
  assert.equal(b.key, "first");
  const c = await queue.addResult(result(4, "-1", "third"));
  const rows = await queue.list(7);
  assert.deepEqual(rows.map((r) => r.key), ["third"]);
  assert.ok(c.seq > a.seq);
});

test("the table's actions only: another table's queue is left alone", async () => {
  const queue = await fresh();
  await queue.addResult(result(1, "=", "mine"));
  await queue.addResult({ ...result(1, "=", "theirs"), table: 8 });
  const net = server();
  await queue.flush("7", net.post);
  assert.deepEqual((await queue.list()).map((r) => r.key), ["theirs"]);
});

test("a confirm queued offline follows its result with the id the server gave", async () => {
  const queue = await fresh();
  const net = server();
  net.online = false;
  await queue.addResult(result(5, "=", "r5"));
  await queue.addConfirm({ table: 7, round: 1, board: 5, key: "c5", after: "r5",
    url: "/table/confirm/{pk}/" });
  await queue.addConfirm({ table: 7, round: 1, board: 5, key: "c5-again", after: "r5",
    url: "/table/confirm/{pk}/" });
  assert.equal(await queue.pending(7), 2, "a second tap queues nothing more");
  net.online = true;
  await queue.flush("7", net.post);
  assert.deepEqual(net.posts, ["/table/result/", "/table/confirm/1/"]);
  assert.equal(net.stored()[0].confirmed, true);
  assert.equal(await queue.pending(7), 0);
});

test("a different result than the stored one is a conflict: kept and shown, never resent", async () => {
  const queue = await fresh();
  const net = server();
  await net.post("/table/result/", body(6, "=", "director"));
  await queue.addResult(result(6, "+2", "device"));
  await queue.addConfirm({ table: 7, round: 1, board: 6, key: "c6", after: "device",
    url: "/table/confirm/{pk}/" });
  const answered = await queue.flush("7", net.post);
  assert.equal(answered[0].outcome.state, OfflineQueue.CONFLICT);
  const rows = await queue.list(7);
  assert.deepEqual(rows.map((r) => [r.key, r.state]), [["device", "conflict"]]);
  assert.equal(net.stored()[0].made, "=", "the stored result is untouched");
  assert.equal(net.stored()[0].confirmed, false, "the conflict's confirm is dropped");
  assert.equal(await queue.pending(7), 0);
  await queue.flush("7", net.post);
  assert.equal(net.posts.length, 2, "a conflict is not sent again");
});

test("an answer from a failing server keeps the action; a refusal or a wrong result is marked", async () => {
  const queue = await fresh();
  await queue.addResult(result(1, "=", "a"));
  await queue.addResult(result(2, "", "b"));
  await queue.addResult(result(3, "=", "c"));
  const down = async () => ({ status: 502, data: {} });
  assert.deepEqual(await queue.flush("7", down), []);
  assert.equal(await queue.pending(7), 3);
  const net = server();
  const refusing = async (url, text) => (new URLSearchParams(text).get("board") === "3"
    ? { status: 403, data: { error: "Signed out." } } : net.post(url, text));
  const answered = await queue.flush("7", refusing);
  assert.deepEqual(answered.map((a) => a.outcome.state), ["saved", "invalid", "refused"]);
  const rows = await queue.list(7);
  assert.deepEqual(rows.map((r) => [r.key, r.state, r.message]),
    [["b", "invalid", "Missing."], ["c", "refused", "Signed out."]]);
  await queue.remove("b");
  await queue.clear(7);
  assert.deepEqual(await queue.list(), []);
});

test("interpret reads the table endpoint's answers", () => {
  const r = { kind: "result" };
  assert.equal(OfflineQueue.interpret(r, { status: 201, data: { outcome: "created" } }).state, "saved");
  assert.equal(OfflineQueue.interpret(r, { status: 200, data: { outcome: "duplicate" } }).state, "saved");
  assert.equal(OfflineQueue.interpret(r, { status: 200, data: { outcome: "conflict" } }).state, "conflict");
  assert.equal(OfflineQueue.interpret(r, { status: 503, data: {} }).state, "waiting");
  assert.equal(OfflineQueue.interpret(r, null).state, "waiting");
  assert.equal(OfflineQueue.content("b=1&a=2&idempotency_key=x"), "a=2&b=1");
});

/* A server for changes to stored rows: /table/correct/<pk>/ sets "made" (refused once
 * confirmed), /table/dispute/<pk>/ records a reason (400 without one). */
function changeServer(base) {
  const s = base;
  const plain = s.post;
  s.post = async (url, text) => {
    const m = url.match(/^\/table\/(correct|dispute)\/(\d+)\/$/);
    if (!m) return plain(url, text);
    if (!s.online) throw new TypeError("Failed to fetch");
    s.posts.push(url);
    const row = [...s.rows.values()].find((r) => r.pk === Number(m[2]));
    const fields = new URLSearchParams(text);
    if (m[1] === "dispute") {
      if (!fields.get("reason")) return { status: 400, data: { errors: { reason: ["Say why."] } } };
      row.dispute = fields.get("reason");
      return { status: 200, data: { result: row.pk, url: "/table/play/1/1/", state: "disputed" } };
    }
    if (row.confirmed && row.made !== fields.get("made")) {
      return { status: 403, data: { error: "No longer." } };
    }
    row.made = fields.get("made");
    return { status: 200, data: { result: row.pk, url: "/table/play/1/1/", state: "entered" } };
  };
  return s;
}

function change(kind, pk, board, fields, key) {
  const b = new URLSearchParams(fields).toString();
  return { kind, pk, table: 7, round: 1, board, key, url: `/table/${kind}/${pk}/`, body: b,
    content: OfflineQueue.content(b) };
}

test("a correction made offline is sent after its result, in order, and stored", async () => {
  const q = await fresh();
  const s = changeServer(server());
  await q.addResult(result(1, "=", "r1"));
  await q.flush("7", s.post);
  const pk = s.rows.get("r1").pk;
  s.online = false;
  await q.addChange(change("correct", pk, 1, { round: "1", board: "1", made: "+1" }, "c1"));
  // a second correction while the first waits replaces it: one is sent
  await q.addChange(change("correct", pk, 1, { round: "1", board: "1", made: "+2" }, "c2"));
  assert.equal(await q.pending("7"), 1);
  await q.flush("7", s.post);
  assert.equal(s.rows.get("r1").made, "=");
  s.online = true;
  const done = await q.flush("7", s.post);
  assert.equal(done.length, 1);
  assert.equal(done[0].outcome.state, OfflineQueue.SAVED);
  assert.equal(s.rows.get("r1").made, "+2");
  assert.deepEqual(s.posts.filter((u) => u.includes("correct")), [`/table/correct/${pk}/`]);
  assert.equal(await q.pending("7"), 0);
});

test("the same rejection tapped twice is queued once; without a reason it is marked", async () => {
  const q = await fresh();
  const s = changeServer(server());
  await q.addResult(result(1, "=", "r1"));
  await q.flush("7", s.post);
  const pk = s.rows.get("r1").pk;
  await q.addChange(change("dispute", pk, 1, { reason: "" }, "d0"));
  let done = await q.flush("7", s.post);
  assert.equal(done[0].outcome.state, OfflineQueue.INVALID);
  assert.deepEqual(done[0].outcome.errors, { reason: ["Say why."] });
  await q.remove("d0");
  s.online = false;
  await q.addChange(change("dispute", pk, 1, { reason: "11 bazas" }, "d1"));
  await q.addChange(change("dispute", pk, 1, { reason: "11 bazas" }, "d2"));
  assert.equal((await q.list("7")).length, 1);
  s.online = true;
  done = await q.flush("7", s.post);
  assert.equal(done[0].outcome.state, OfflineQueue.SAVED);
  assert.equal(s.rows.get("r1").dispute, "11 bazas");
});

test("a correction the server refuses (already confirmed) is marked, not resent", async () => {
  const q = await fresh();
  const s = changeServer(server());
  await q.addResult(result(1, "=", "r1"));
  await q.flush("7", s.post);
  const pk = s.rows.get("r1").pk;
  s.rows.get("r1").confirmed = true;
  await q.addChange(change("correct", pk, 1, { round: "1", board: "1", made: "-1" }, "c1"));
  const done = await q.flush("7", s.post);
  assert.equal(done[0].outcome.state, OfflineQueue.REFUSED);
  const again = await q.flush("7", s.post);
  assert.equal(again.length, 0);
  assert.equal(s.rows.get("r1").made, "=");
});

test("a result the server holds back (its round not open yet) waits, and the rest are sent", async () => {
  const queue = await fresh();
  const stored = new Set();
  const post = async (url, text) => {
    const fields = new URLSearchParams(text);
    const board = fields.get("board");
    // round 2 (board 3) opens once board 1 and board 2 of round 1 are stored
    if (board === "3" && !(stored.has("1") && stored.has("2"))) {
      return { status: 409, data: { outcome: "round_not_open", error: "Round 2 is not open." } };
    }
    stored.add(board);
    return { status: 201, data: { outcome: "created", result: stored.size } };
  };
  await queue.addResult(result(1, "=", "b1"));
  await queue.addResult({ ...result(3, "=", "b3"), round: 2 });
  await queue.addConfirm({ table: 7, round: 2, board: 3, key: "c3", after: "b3",
    url: "/table/confirm/{pk}/" });
  await queue.addResult(result(2, "=", "b2")); // typed after board 3: sent in the same flush
  const first = await queue.flush("7", post);
  assert.deepEqual(first.map((a) => [a.entry.key, a.outcome.state, !!a.outcome.held]),
    [["b1", OfflineQueue.SAVED, false], ["b3", OfflineQueue.WAITING, true],
      ["b2", OfflineQueue.SAVED, false]]);
  const left = await queue.list(7);
  assert.deepEqual(left.map((e) => [e.key, e.state]), [["b3", "waiting"], ["c3", "waiting"]]);
  assert.equal(left[0].message, "Round 2 is not open.");
  const second = await queue.flush("7", async (url, text) =>
    url.startsWith("/table/confirm/") ? { status: 200, data: { confirmed: true, result: 3 } }
      : post(url, text));
  assert.deepEqual(second.map((a) => [a.entry.key, a.outcome.state]),
    [["b3", OfflineQueue.SAVED], ["c3", OfflineQueue.SAVED]]);
  assert.equal(await queue.pending(7), 0);
});

test("a result for a round the table has not reached, with nothing before it waiting, is refused",
  async () => {
    const queue = await fresh();
    let posts = 0;
    const post = async () => {
      posts += 1;
      return { status: 409, data: { outcome: "round_not_open", error: "Round 3 is not open." } };
    };
    await queue.addResult({ ...result(7, "=", "b7"), round: 3 });
    await queue.addConfirm({ table: 7, round: 3, board: 7, key: "c7", after: "b7",
      url: "/table/confirm/{pk}/" });
    const done = await queue.flush("7", post);
    assert.deepEqual(done.map((a) => [a.entry.key, a.outcome.state]),
      [["b7", OfflineQueue.REFUSED]]);
    const left = await queue.list(7);
    assert.deepEqual(left.map((e) => [e.key, e.state, e.message || ""]),
      [["b7", "refused", "Round 3 is not open."]]); // its confirm has nothing to confirm
    assert.equal((await queue.flush("7", post)).length, 0); // never sent again by itself
    assert.equal(posts, 1);
  });

test("a confirm queued after a correction confirms what the correction stored", async () => {
  const queue = await fresh();
  const posts = [];
  const post = async (url) => {
    posts.push(url);
    return url.startsWith("/table/correct/") ? { status: 200, data: { result: 41 } }
      : { status: 200, data: { confirmed: true, result: 41 } };
  };
  await queue.addChange({ kind: "correct", key: "k1", table: 7, round: 1, board: 5, pk: "41",
    url: "/table/correct/41/", body: "made=%2B1", content: "x" });
  await queue.addConfirm({ table: 7, round: 1, board: 5, key: "c1", after: "k1",
    url: "/table/confirm/{pk}/" });
  const done = await queue.flush("7", post);
  assert.deepEqual(done.map((a) => [a.entry.key, a.outcome.state]),
    [["k1", OfflineQueue.SAVED], ["c1", OfflineQueue.SAVED]]);
  assert.deepEqual(posts, ["/table/correct/41/", "/table/confirm/41/"]);
});

// The table device's round (tournaments/static/tournaments/table_round.js): the next board is
// never one already played, whatever the kept page says. Run: node --test tests/js/
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const TableRound = require("../../tournaments/static/tournaments/table_round.js");

function memory() {
  const items = new Map();
  return { getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem: (k, v) => items.set(k, String(v)) };
}

test("next board: the first of the round neither shown nor played", () => {
  const played = new Set(["4"]);
  const next = (current) => TableRound.nextBoard(["4", "5", "6"], current, (b) => played.has(b));
  assert.equal(next("5"), "6"); // the issue: saved 4 online, 5 offline; "Next" is not 4
  played.add("6");
  assert.equal(next("5"), null); // every other board played: back to the round
  played.clear();
  assert.equal(next("6"), "4");
});

test("what the device saw saved, per table, reset by the server's round page", () => {
  const storage = memory();
  const saved = new TableRound.Saved(storage, 7);
  saved.add(2, 4);
  saved.add(2, 4);
  saved.add(3, 7);
  assert.ok(saved.has(2, 4) && saved.has("3", "7") && !saved.has(2, 5));
  assert.deepEqual(saved.all(), ["2-4", "3-7"]);
  assert.ok(!new TableRound.Saved(storage, 8).has(2, 4), "another table's device");
  saved.reset(2, ["4", "5", "6"], ["5"]); // the director removed board 4's result
  assert.ok(!saved.has(2, 4) && saved.has(2, 5) && saved.has(3, 7));
});

test("storage that fails or holds garbage never breaks the page", () => {
  const broken = { getItem: () => "{not json", setItem: () => { throw new Error("full"); } };
  const saved = new TableRound.Saved(broken, 7);
  assert.deepEqual(saved.all(), []);
  saved.add(1, 1); // no throw
  assert.ok(!saved.has(1, 1));
});

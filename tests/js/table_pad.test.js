// The score pad's steps on a phone (tournaments/static/tournaments/table_pad.js): contract,
// declarer, result, lead, score. Run: node --test tests/js/
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const TablePad = require("../../tournaments/static/tournaments/table_pad.js");

test("each tap that completes a step moves on; Pass goes to the score", () => {
  const taps = [["level", "4"], ["strain", "S"], ["double", "X"], ["declarer", "N"],
    ["made", "+1"], ["lead_suit", "H"], ["lead_rank", "T"]];
  const seen = [];
  let step = "contract";
  for (const [name, value] of taps) {
    step = TablePad.after(step, name, value, true);
    seen.push(step);
  }
  assert.deepEqual(seen, ["contract", "declarer", "declarer", "made", "lead", "lead", "score"]);
  assert.equal(TablePad.after("contract", "level", "PASS", true), "score");
  assert.equal(TablePad.after("made", "made", "=", false), "score"); // the club asks no lead
});

test("back goes one step up, over a lead the club does not ask, and Pass back to the contract",
  () => {
    assert.equal(TablePad.before("declarer", { level: "3" }, true), "contract");
    assert.equal(TablePad.before("score", { level: "3" }, true), "lead");
    assert.equal(TablePad.before("score", { level: "3" }, false), "made");
    assert.equal(TablePad.before("score", { level: "PASS" }, true), "contract");
    assert.equal(TablePad.before("contract", {}, true), "contract");
  });

test("a pad opened with picks starts at the first one missing", () => {
  assert.equal(TablePad.firstMissing({}), "contract");
  assert.equal(TablePad.firstMissing({ level: "3" }), "contract");
  assert.equal(TablePad.firstMissing({ level: "3", strain: "NT" }), "declarer");
  assert.equal(TablePad.firstMissing({ level: "3", strain: "NT", declarer: "S" }), "made");
  assert.equal(TablePad.firstMissing({ level: "3", strain: "NT", declarer: "S", made: "=" }),
    "score");
  assert.equal(TablePad.firstMissing({ level: "PASS" }), "score");
});

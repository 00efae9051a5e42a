// The table device's scores (tournaments/static/tournaments/table_score.js) against every line
// of the scoring core's table (contract_scores.json, generated from scoring.ns_score and kept
// equal to it by tests/scoring/test_scoring_js_table.py). Run: node --test tests/js/
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const TableScore = require("../../tournaments/static/tournaments/table_score.js");
const table = require("./contract_scores.json");

test("every level, strain, doubling, declarer, vulnerability and trick count", () => {
  let i = 0;
  const wrong = [];
  for (let level = 1; level <= 7; level++) {
    for (const strain of table.strains) {
      for (const doubled of [0, 1, 2]) {
        for (const declarer of "NESW") {
          for (const vul of table.vulnerability) {
            for (let tricks = 0; tricks <= 13; tricks++) {
              const got = TableScore.nsScore({ level, strain, doubled }, declarer, tricks, vul);
              if (got !== table.scores[i]) {
                wrong.push(`${level}${strain}${"X".repeat(doubled)} ${declarer} vul ${vul || "-"} ` +
                  `${tricks} tricks: ${got}, core ${table.scores[i]}`);
              }
              i++;
            }
          }
        }
      }
    }
  }
  assert.equal(i, table.scores.length);
  assert.deepEqual(wrong, []);
});

test("the pad's buttons: Pass scores 0, a missing pick or an impossible result nothing", () => {
  const pad = (fields) => TableScore.fromPad(
    Object.assign({ level: "3", strain: "NT", double: "", declarer: "S", made: "=" }, fields), "");
  assert.deepEqual(pad({}), { ns: 400 });
  assert.deepEqual(pad({ declarer: "E", made: "-2" }), { ns: 100 });
  assert.deepEqual(pad({ level: "PASS", strain: "", declarer: "", made: "" }), { ns: 0 });
  assert.equal(pad({ declarer: "" }), null);
  assert.equal(pad({ made: "+5" }), null); // 3NT+5 would be 14 tricks
  assert.deepEqual(TableScore.fromPad({ level: "4", strain: "S", double: "X", declarer: "N",
    made: "+1" }, "NS"), { ns: 990 });
});

test("a result described as players read it, in the page's words", () => {
  const words = { nt: "SA", ns: "NS", ew: "EO", passed: "Todos pasan",
    seats: { N: "N", E: "E", S: "S", W: "O" } };
  const line = (picks, vul) => TableScore.describe(Object.assign(
    { level: "3", strain: "NT", double: "", declarer: "S", made: "=" }, picks), vul || "", words);
  assert.equal(line({}), "3SA= S · NS +400");
  assert.equal(line({ strain: "S", double: "X", declarer: "W", made: "-1" }, "All"),
    "3♠X−1 O · NS +200");
  assert.equal(line({ level: "PASS" }), "Todos pasan · 0");
  assert.equal(line({ made: "" }), "");
});

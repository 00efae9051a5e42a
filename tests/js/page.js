// A table page in jsdom for the DOM modules' tests: the body given, the scripts named loaded
// into it as the page loads them (tournaments/static/tournaments/), and the shared state
// table.js would set (T = window.TableDevice) with the queue's constants and the words.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const { JSDOM } = require("jsdom");

const STATIC = path.join(__dirname, "..", "..", "tournaments", "static", "tournaments");

const TEXT = {
  waiting: "Waiting to send.", sending: "Sending…", waiting_short: "Waiting", saved: "Saved.",
  saved_short: "Saved", conflict_director: "Conflict: ask the director.",
  conflict_short: "Conflict", refused: "Refused:", invalid: "Please correct it.",
  all_saved: "Every result is saved.", pending: "Waiting to be sent: %(count)s",
  needs_you: "Some were not stored.", confirm_waiting: "Confirmation waiting.",
  correct_waiting: "Correction waiting.", dispute_waiting: "Rejection waiting.",
  discard: "Discard", board: "Board %(board)s", choose: "Choose.", ns: "NS", ew: "EW",
  next_board: "Next: board %(number)s", nt: "NT", passed: "Passed out", back: "Back",
  seats: { N: "N", E: "E", S: "S", W: "W" }, correcting: "Change it and save.",
  replaced: "Replaced: confirm again.", call_offline: "No connection.",
};

function page(body, scripts) {
  const dom = new JSDOM(`<!doctype html><html><body>${body}</body></html>`,
    { runScripts: "outside-only", url: "https://club.example/table/play/" });
  const { window } = dom;
  for (const name of scripts) {
    window.eval(fs.readFileSync(path.join(STATIC, `${name}.js`), "utf8"));
  }
  const T = window.TableDevice || (window.TableDevice = {});
  Object.assign(T, {
    app: window.document.getElementById("table-app") || window.document.body,
    Q: window.OfflineQueue, text: TEXT, tableId: "7", entries: [], queue: null,
    Score: window.TableScore, Round: window.TableRound, saved: null, correcting: null,
    replaced: null, stepper: null, RETRY_MS: 4000,
    format: (template, values) => template.replace(/%\((\w+)\)s/g, (_, n) => values[n]),
    csrfToken: () => "token", newKey: (() => { let n = 0; return () => `key-${++n}`; })(),
  });
  return { window, document: window.document, T };
}

// A queued action as offline_queue.js keeps it.
function queued(fields) {
  return Object.assign({ kind: "result", table: "7", round: "1", board: "1", key: "k",
    state: "waiting", body: "", content: "" }, fields);
}

module.exports = { page, queued, TEXT };

/* What the table's screen says about the queue: the sync badge, the list of what waits or
 * was refused (with "Discard"), the entry status line, the field errors the server gave,
 * and the round page's boards marked waiting or saved (table.js wires it; T is
 * window.TableDevice). */
(function (T) {
  "use strict";

  var WAITING_TEXT = { confirm: "confirm_waiting", correct: "correct_waiting",
    dispute: "dispute_waiting", result: "waiting" };

  T.screen = function screen() {
    return document.getElementById("board-screen");
  };

  T.onThisBoard = function onThisBoard(entry) {
    var s = T.screen();
    return s && s.dataset.round === String(entry.round) && s.dataset.board === String(entry.board);
  };

  T.setStatus = function setStatus(state, message) {
    var status = document.getElementById("entry-status");
    if (!status) return;
    status.dataset.state = state;
    status.textContent = message;
  };

  T.showFieldErrors = function showFieldErrors(errors, formId) {
    var form = document.getElementById(formId || "result-form");
    if (!form) return;
    form.querySelectorAll(".js-error").forEach(function (node) { node.remove(); });
    Object.keys(errors || {}).forEach(function (field) {
      var box = form.querySelector('[data-field="' + field + '"]') || form;
      var list = document.createElement("ul");
      list.className = "errorlist js-error";
      errors[field].forEach(function (message) {
        var item = document.createElement("li");
        item.textContent = message;
        list.appendChild(item);
      });
      box.appendChild(list);
    });
  };

  T.describe = function describe(e) {
    if (e.state === T.Q.WAITING && e.message) return e.message; // held: its round is not open
    if (e.state === T.Q.WAITING) return T.text[WAITING_TEXT[e.kind] || "waiting"];
    if (e.state === T.Q.CONFLICT) return T.text.conflict_director;
    if (e.state === T.Q.INVALID) return T.text.invalid + " " + (e.message || "");
    return T.text.refused + " " + (e.message || "");
  };

  T.render = function render() {
    var waiting = T.entries.filter(function (e) { return e.state === T.Q.WAITING; });
    var stuck = T.entries.length - waiting.length;
    var badge = document.getElementById("sync-status");
    if (badge) {
      badge.dataset.state = stuck ? "refused" : (waiting.length ? "waiting" : "saved");
      badge.dataset.count = String(waiting.length);
      badge.textContent = waiting.length ? T.format(T.text.pending, { count: waiting.length })
        : (stuck ? T.text.needs_you : T.text.all_saved);
    }
    var list = document.getElementById("pending-list");
    if (list) {
      // Only what needs the players is listed (a refusal, a conflict, a round not open): the
      // badge counts what waits, and the round page marks each board; a card per waiting
      // result would push the pad, or the next round, off a phone's screen.
      var listed = T.entries.filter(function (e) { return e.state !== T.Q.WAITING || e.message; });
      list.textContent = "";
      listed.forEach(function (e) {
        var item = document.createElement("li");
        item.dataset.state = e.state;
        item.dataset.kind = e.kind;
        var label = document.createElement("span");
        label.textContent = T.format(T.text.board, { board: e.board }) + ": " + T.describe(e);
        item.appendChild(label);
        if (e.state !== T.Q.WAITING) {
          var discard = document.createElement("button");
          discard.type = "button";
          discard.className = "secondary";
          discard.textContent = T.text.discard;
          discard.addEventListener("click", function () { T.queue.remove(e.key).then(T.refresh); });
          item.appendChild(discard);
        }
        list.appendChild(item);
      });
      list.hidden = listed.length === 0;
    }
    T.renderRound();
    T.noticeSentElsewhere();
    T.renderBoard();
    T.renderNext();
  };

  T.queuedResult = function queuedResult(round, board) {
    return T.entries.filter(function (e) {
      return e.kind === "result" && e.round === String(round) && e.board === String(board) &&
        (e.state === T.Q.WAITING || e.state === T.Q.CONFLICT);
    })[0];
  };

  T.inQueue = function inQueue(round, board) {
    // A result for this board still in the queue, whatever its state (refused ones too).
    return T.entries.some(function (e) {
      return e.kind === "result" && e.round === String(round) && e.board === String(board);
    });
  };

  T.renderRound = function renderRound() {
    var links = document.querySelectorAll("[data-board-key]");
    var allIn = links.length > 0;
    links.forEach(function (link) {
      var parts = link.dataset.boardKey.split("-");
      var here = T.queuedResult(parts[0], parts[1]);
      var badgeNode = link.querySelector(".local-state");
      // A board this device saw saved, on a page drawn before (kept for the drop): saved.
      var seen = !here && !link.classList.contains("done") && T.saved &&
        T.saved.has(parts[0], parts[1]);
      if (here && badgeNode) {
        badgeNode.classList.add("waiting");
        badgeNode.dataset.state = here.state;
        badgeNode.textContent = here.state === T.Q.CONFLICT ? T.text.conflict_short : T.text.waiting_short;
      } else if (badgeNode && (seen || (badgeNode.classList.contains("waiting") &&
                 !T.inQueue(parts[0], parts[1])))) {
        // Sent since it was marked here, or saved after the page was drawn: saved.
        badgeNode.classList.remove("waiting", "badge-none");
        badgeNode.classList.add("badge-valid");
        badgeNode.dataset.state = "saved";
        badgeNode.textContent = T.text.saved_short;
        link.classList.add("done");
      }
      if (!here && !link.classList.contains("done")) allIn = false;
    });
    // Every board saved or waiting to be sent: where everyone moves, and the next round.
    var moves = document.getElementById("moves");
    if (moves && allIn) moves.hidden = false;
  };

  T.rememberRound = function rememberRound() {
    // The server's round page is the truth for its round; a saved board screen for its board.
    // A page from the worker's copy (data-page="kept") is as old as the copy: it changes
    // nothing of what the device saw saved since.
    var round = document.getElementById("round");
    var links = document.querySelectorAll("[data-board-key]");
    if (T.saved && round && links.length && T.app.dataset.page !== "kept") {
      var boards = [], done = [];
      links.forEach(function (link) {
        var parts = link.dataset.boardKey.split("-");
        boards.push(parts[1]);
        if (link.classList.contains("done")) done.push(parts[1]);
      });
      T.saved.reset(round.dataset.round, boards, done);
    }
    var s = T.screen();
    if (T.saved && s && s.dataset.state === "saved") T.saved.add(s.dataset.round, s.dataset.board);
    if (round) T.rememberAt(round.dataset.round);
    var home = document.getElementById("offline-home"); // the "no connection" page
    var at = T.lastRound();
    if (home && at) home.href = home.getAttribute("href").split("?")[0] + "?round=" + at;
  };

  T.rememberAt = function rememberAt(round) {
    try { localStorage.setItem("clubsite.table.round." + T.tableId, String(round)); } catch (e) { /* none */ }
  };

  T.lastRound = function lastRound() {
    try { return localStorage.getItem("clubsite.table.round." + T.tableId); } catch (e) { return null; }
  };
})(window.TableDevice = window.TableDevice || {});

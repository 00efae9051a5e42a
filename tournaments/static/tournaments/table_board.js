/* The board screen: the pad's score worked out on the device (table_score.js), shown
 * offline too; what waits for this board (its score for East-West, the offline "Confirm");
 * and "Next board" from the round's boards and what is saved or queued (table_round.js),
 * never a board already played. */
(function (T) {
  "use strict";

  T.picks = function picks(source) {
    // The pad's choices, from a form or a queued body.
    var get = source instanceof URLSearchParams ? function (name) { return source.get(name); }
      : function (name) {
        var checked = source.querySelector("input[name=" + name + "]:checked");
        return checked ? checked.value : "";
      };
    return { level: get("level") || "", strain: get("strain") || "", double: get("double") || "",
      declarer: get("declarer") || "", made: get("made") || "" };
  };

  T.showScore = function showScore(target, scored) {
    // As _score.html draws it: "NS +400", "0", or the hint while something is missing.
    if (!target) return;
    target.textContent = "";
    if (!scored) {
      var hint = document.createElement("span");
      hint.className = "muted";
      hint.textContent = T.text.choose;
      target.appendChild(hint);
      return;
    }
    var box = document.createElement("span");
    box.className = "preview-score";
    box.dataset.points = String(Math.abs(scored.ns));
    box.dataset.local = "1";
    if (scored.ns === 0) box.textContent = "0";
    else {
      var side = document.createElement("span");
      side.className = "score-side";
      side.textContent = scored.ns > 0 ? T.text.ns : T.text.ew;
      box.appendChild(side);
      box.appendChild(document.createTextNode(" +" + Math.abs(scored.ns)));
    }
    target.appendChild(box);
  };

  T.scoreOf = function scoreOf(source) {
    var s = T.screen();
    if (!T.Score || !s) return null;
    return T.Score.fromPad(T.picks(source), s.dataset.vulnerability || "");
  };

  T.showPadScore = function showPadScore(form) {
    var target = form.querySelector(".preview");
    if (target && T.Score) T.showScore(target, T.scoreOf(form));
  };

  T.playedHere = function playedHere(round, board) {
    return (T.saved && T.saved.has(round, board)) || T.inQueue(round, board);
  };

  T.renderNext = function renderNext() {
    // "Next board" from the round's boards and what is saved or queued: never one played.
    var s = T.screen();
    var link = document.getElementById("next-board");
    if (!s || !link || !s.dataset.boards || !s.dataset.boardUrl) return;
    var round = s.dataset.round;
    var next = T.Round ? T.Round.nextBoard(s.dataset.boards.split(","), s.dataset.board,
      function (b) { return T.playedHere(round, b); }) : null;
    var back = document.getElementById("round-link");
    link.hidden = !next;
    if (back) back.classList.toggle("secondary", !!next);
    if (!next) return;
    link.href = s.dataset.boardUrl.replace(/0\/$/, next + "/");
    link.textContent = T.format(T.text.next_board, { number: next });
  };

  T.renderSaved = function renderSaved(s) {
    // A stored board: what waits for it here (East-West's tap, a correction, a rejection).
    var mine = T.entries.filter(function (e) { return e.kind !== "result" && T.onThisBoard(e); });
    var change = mine.filter(function (e) { return e.kind === "correct" || e.kind === "dispute"; }).pop();
    var correction = change && change.kind === "correct" && change.state === T.Q.WAITING ? change : null;
    // East-West's tap on what is stored, or on the correction waiting to be sent.
    var confirmed = mine.some(function (e) { return e.kind === "confirm" && !e.after; });
    var correctionConfirmed = !!correction && mine.some(function (e) {
      return e.kind === "confirm" && e.after === correction.key;
    });
    var box = document.getElementById("saved-correction");
    if (box) box.hidden = !correction;
    if (correction && box && T.Score) {
      // The stored result struck beside the correction: East-West confirm the correction.
      document.getElementById("correction-old").textContent = ["#saved-result-line", "#saved-score"]
        .map(function (id) { var n = s.querySelector(id); return n ? n.textContent : ""; })
        .join(" · ").replace(/\s+/g, " ").trim();
      document.getElementById("correction-new").textContent = T.Score.describe(
        T.picks(new URLSearchParams(correction.body)), s.dataset.vulnerability || "", T.words());
    }
    var confirmCorrection = document.getElementById("correction-confirm");
    if (confirmCorrection) confirmCorrection.hidden = !correction || correctionConfirmed;
    s.querySelectorAll(".confirm-form").forEach(function (form) {
      form.hidden = !!correction || confirmed;
    });
    // Once East-West's tap is kept, the result is theirs: no correction or rejection after it.
    s.querySelectorAll("details.table-action").forEach(function (d) {
      d.hidden = !!correction || confirmed;
    });
    var nav = document.getElementById("saved-nav");
    if (nav && (confirmed || correctionConfirmed)) nav.hidden = false; // play goes on
    if (!change) return;
    if (correctionConfirmed) T.setStatus("waiting", T.text.correct_waiting + " " +
      T.text.confirm_waiting);
    else if (change.state === T.Q.WAITING) T.setStatus("waiting", T.describe(change));
    else T.setStatus(change.state, T.describe(change));
    s.querySelectorAll("details.table-action").forEach(function (details) { details.open = false; });
  };

  T.renderBoard = function renderBoard() {
    var s = T.screen();
    if (s && s.dataset.state === "saved") return T.renderSaved(s);
    if (!s) return;
    var here = T.queuedResult(s.dataset.round, s.dataset.board);
    // The worker's copy of a board this device saw saved since: the empty form it kept is
    // old; the board is not entered again.
    var savedBefore = !here && T.app.dataset.page === "kept" && !!T.saved &&
      T.saved.has(s.dataset.round, s.dataset.board);
    var note = document.getElementById("offline-saved");
    if (note) note.hidden = !savedBefore;
    var nav = document.getElementById("offline-nav");
    if (nav) nav.hidden = !here && !savedBefore;
    var queuedScore = document.getElementById("offline-score");
    if (queuedScore) {
      queuedScore.hidden = !here || !!T.correcting; // while correcting, the pad shows the new
      if (here) T.showScore(queuedScore, T.scoreOf(new URLSearchParams(here.body)));
    }
    if (T.correcting && (!here || here.key !== T.correcting)) T.correcting = null; // sent meanwhile
    var form = document.getElementById("result-form");
    if (form) form.hidden = savedBefore;
    var refused = !here && T.entries.filter(function (e) {
      return e.kind === "result" && T.onThisBoard(e) && e.state === T.Q.INVALID;
    }).pop();
    if (form && refused && form.dataset.refilled !== refused.key) {
      // Refused after the Wi-Fi came back: its picks return, on the step that was wrong.
      form.dataset.refilled = refused.key;
      T.setPicks(form, new URLSearchParams(refused.body));
      T.showPadScore(form);
      if (window.TablePad && T.stepper) T.stepper.go(TablePad.stepOf((refused.fields || [])[0] || ""));
      T.setStatus("invalid", T.describe(refused));
    }
    if (form) T.lockPad(form, here && T.correcting !== here.key ? here : null);
    var correctButton = document.getElementById("offline-correct");
    if (correctButton) {
      correctButton.hidden = !here || here.state !== T.Q.WAITING || T.correcting === here.key;
    }
    var confirmBox = document.getElementById("offline-confirm");
    var confirmed = here && T.entries.some(function (e) {
      return e.kind === "confirm" && e.after === here.key;
    });
    if (confirmBox) {
      confirmBox.hidden = !here || here.state !== T.Q.WAITING || confirmed || !!T.correcting;
    }
    if (!here) return;
    if (here.state === T.Q.CONFLICT) T.setStatus("conflict", T.text.conflict_director);
    else if (T.correcting) T.setStatus("waiting", T.text.correcting);
    else if (confirmed) T.setStatus("waiting", T.text.waiting + " " + T.text.confirm_waiting);
    else if (T.replaced === here.key) T.setStatus("waiting", T.text.replaced);
    else T.setStatus("waiting", here.message || T.text.waiting); // held: says why
  };
})(window.TableDevice = window.TableDevice || {});

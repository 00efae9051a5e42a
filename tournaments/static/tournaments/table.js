/* The table device, offline first: this file starts it and wires the page.
 *
 * Every result and every opponents' tap goes into a queue in IndexedDB (offline_queue.js)
 * with its idempotency key before it is sent, and is sent in order: at once, when the
 * browser says it is back online, when the page is shown again, every few seconds, and by
 * the service worker's Background Sync where the browser has it. The server stores a key
 * once, so sending twice is safe; a result that differs from the one stored (another device,
 * or the director's correction) comes back as a conflict and stays on screen as "ask the
 * director", never sent over it.
 *
 * The service worker (/table/sw.js) keeps the pages: when the round page loads online, the
 * round's and the next round's pages are fetched into its cache, so "next board", "next
 * round" and a reload work with the Wi-Fi down. Without these scripts the forms post normally.
 *
 * One job a file, sharing ``window.TableDevice`` (T): table_screen.js what the screen says
 * (the queue's badge and list, the round page), table_board.js the board screen (its score
 * and "Next" worked out here), table_lock.js the pad of a result waiting to be sent,
 * table_send.js sending and taking the answers, table_worker.js the pages kept offline; the
 * pure parts are table_score.js (Law 77), table_round.js (the round's boards played),
 * table_pad.js (the pad's steps), offline_queue.js and offline_send.js (the queue and its
 * sending). Each has its tests in tests/js/; the pages load them in the order
 * templatetags/table_mode.py TABLE_SCRIPTS gives.
 */
(function (T) {
  "use strict";

  T.RETRY_MS = 4000;
  T.app = document.getElementById("table-app");
  if (!T.app) return;
  T.Q = window.OfflineQueue;

  // Once the device has left its table (the director's PIN taken), the sign-in page forgets
  // the pages kept for it; the queue stays until sent or discarded.
  if (T.app.dataset.forget && window.caches && T.Q) caches.delete(T.Q.CACHE);
  T.registerWorker();
  if (!T.app.dataset.table || !T.Q) return;

  T.tableId = T.app.dataset.table;
  T.resultUrl = T.app.dataset.resultUrl;
  // ".../confirm/0/" → ".../confirm/{pk}/": the queue puts the result's id in.
  T.confirmUrl = (T.app.dataset.confirmUrl || "").replace(/\/0\/$/, "/{pk}/");
  var textNode = document.getElementById("table-text");
  T.text = textNode ? JSON.parse(textNode.textContent) : {};
  T.queue = null; // the open queue; null: no IndexedDB here, the forms post normally
  T.entries = []; // the table's queued actions, as last read

  T.csrfToken = function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  };

  T.newKey = function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes); // available outside secure contexts too
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  };

  T.format = function format(template, values) {
    return (template || "").replace(/%\((\w+)\)s/g, function (_, name) { return values[name]; });
  };

  T.Score = window.TableScore;
  T.Round = window.TableRound;
  T.saved = null; // the boards this device saw saved (table_round.js)
  try {
    if (T.Round && window.localStorage) T.saved = new T.Round.Saved(window.localStorage, T.tableId);
  } catch (e) { /* no storage: "Next" as the page drew it */ }

  /* --- the state the modules share ------------------------------------------------------ */

  T.correcting = null; // the key of the waiting result the table chose to correct
  T.replaced = null; // the key of a correction that replaced a waiting result
  T.stepper = null; // the pad one step at a time, on a phone (table_pad.js)

  T.refresh = function refresh() {
    if (!T.queue) return Promise.resolve();
    return T.queue.list(T.tableId).then(function (rows) {
      T.entries = rows;
      T.render();
    });
  };

  /* --- the entry form and the opponents' tap (table_send.js sends them) ------------------ */

  T.setup = function setup() {
    var form = document.getElementById("result-form");
    if (form && !form.dataset.ready) {
      form.dataset.ready = "1";
      if (window.TablePad && window.matchMedia) {
        T.stepper = new TablePad.Stepper(form, window.matchMedia("(max-width: 640px)"), T.text.back);
      }
      form.addEventListener("submit", T.submit);
      form.addEventListener("change", function (event) {
        if (event.target.name === "level") T.fitToLevel(form);
        if (T.stepper) T.stepper.go(form.dataset.step); // the summary, after Pass cleared
        T.showPadScore(form);
      });
      T.fitToLevel(form);
    }
    var correctForm = document.getElementById("correct-form");
    if (correctForm && !correctForm.dataset.ready) {
      correctForm.dataset.ready = "1";
      if (window.TablePad && window.matchMedia) { // one step at a time on a phone too,
        var level = correctForm.querySelector("input[name=level]:checked");
        // Opened on the tricks, most often what was wrong; a passed-out board on its contract.
        correctForm.dataset.step = level && level.value !== "PASS" ? "made" : "contract";
        new TablePad.Stepper(correctForm, window.matchMedia("(max-width: 640px)"), T.text.back);
      }
      var box = document.getElementById("correct-box");
      if (box) box.addEventListener("toggle", function () { // opened: its pad in sight
        if (box.open && box.scrollIntoView) box.scrollIntoView({ block: "start" });
      });
      correctForm.addEventListener("submit", function (event) {
        if (T.queueChange("correct", correctForm)) event.preventDefault();
      });
      correctForm.addEventListener("change", function (event) {
        if (event.target.name === "level") T.fitToLevel(correctForm);
        T.showPadScore(correctForm);
      });
      T.fitToLevel(correctForm);
    }
    var disputeForm = document.getElementById("dispute-form");
    if (disputeForm && !disputeForm.dataset.ready) {
      disputeForm.dataset.ready = "1";
      disputeForm.addEventListener("submit", function (event) {
        if (!disputeForm.reason.value.trim()) return; // the server says what is missing
        if (T.queueChange("dispute", disputeForm)) event.preventDefault();
      });
    }
    var offlineCorrect = document.getElementById("offline-correct");
    if (offlineCorrect && !offlineCorrect.dataset.ready) {
      offlineCorrect.dataset.ready = "1";
      offlineCorrect.addEventListener("click", function () {
        var s = T.screen();
        var here = T.queuedResult(s.dataset.round, s.dataset.board);
        if (here) T.correcting = here.key;
        T.render();
      });
    }
    var correctionConfirm = document.getElementById("correction-confirm");
    if (correctionConfirm && !correctionConfirm.dataset.ready) {
      correctionConfirm.dataset.ready = "1";
      correctionConfirm.addEventListener("click", function () {
        var s = T.screen();
        var waiting = T.entries.filter(function (e) {
          return e.kind === "correct" && T.onThisBoard(e) && e.state === T.Q.WAITING;
        }).pop();
        if (waiting) T.queueConfirm({ round: s.dataset.round, board: s.dataset.board, after: waiting.key });
      });
    }
    var offlineConfirm = document.getElementById("offline-confirm-button");
    if (offlineConfirm && !offlineConfirm.dataset.ready) {
      offlineConfirm.dataset.ready = "1";
      offlineConfirm.addEventListener("click", function () {
        var s = T.screen();
        var here = T.queuedResult(s.dataset.round, s.dataset.board);
        if (here) T.queueConfirm({ round: here.round, board: here.board, after: here.key });
      });
    }
    var confirmForm = document.querySelector(".confirm-form[data-result]");
    if (confirmForm && !confirmForm.dataset.ready) {
      confirmForm.dataset.ready = "1";
      confirmForm.addEventListener("submit", function (event) {
        if (!T.queue) return;
        event.preventDefault();
        var s = T.screen();
        T.queueConfirm({ round: s.dataset.round, board: s.dataset.board,
          pk: confirmForm.dataset.result }).then(function () {
          var left = T.entries.some(function (e) { return e.kind === "confirm" && T.onThisBoard(e); });
          if (left) T.setStatus("waiting", T.text.confirm_waiting);
        });
      });
    }
    T.rememberRound();
    T.render();
  };

  document.body.addEventListener("htmx:sendError", function (event) {
    // Offline the server cannot score the pad: the device does (table_score.js).
    var target = event.detail && event.detail.target;
    if (target && target.id === "director-call") {
      var note = target.querySelector(".call-offline") || document.createElement("span");
      note.className = "call-offline";
      note.setAttribute("role", "alert");
      note.textContent = T.text.call_offline;
      target.appendChild(note);
      return;
    }
    var form = target && target.closest("form");
    if (!form || !target.classList.contains("preview")) return;
    if (T.Score) T.showScore(target, T.scoreOf(form));
    else target.textContent = T.text.offline_preview;
  });

  var wakeLock = null;

  function keepAwake() {
    // The screen stays on while the table plays (Screen Wake Lock, where the browser has it);
    // the browser lets it go when the page is hidden, so it is asked for again on return.
    if (!navigator.wakeLock || wakeLock || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      T.app.dataset.awake = "1";
      lock.addEventListener("release", function () { wakeLock = null; delete T.app.dataset.awake; });
    }, function () { /* refused (battery saver): the screen may sleep */ });
  }

  window.addEventListener("online", T.flush);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      T.flush();
      keepAwake();
    }
  });
  keepAwake();
  setInterval(T.flush, T.RETRY_MS);

  function adoptOldQueue() {
    // The previous version kept waiting results in localStorage: queue them here, once.
    var OLD = "clubsite.table.queue.v1";
    var old;
    try {
      old = JSON.parse(localStorage.getItem(OLD) || "[]");
    } catch (e) {
      return Promise.resolve();
    }
    return old.filter(function (e) { return e.state === "waiting"; }).reduce(function (chain, e) {
      return chain.then(function () {
        return T.queue.addResult({ key: e.key, table: e.table, round: e.round, board: e.board,
          url: T.resultUrl, body: e.body, content: e.content, csrf: T.csrfToken(), at: e.at });
      });
    }, Promise.resolve()).then(function () { localStorage.removeItem(OLD); });
  }

  T.Q.open(window.indexedDB).then(function (opened) {
    T.queue = opened;
    return adoptOldQueue();
  }).then(function () {
    T.setup();
    return T.refresh();
  }).then(T.flush, function () {
    T.setup(); // no IndexedDB (a private window in some browsers): plain form posts
  });
})(window.TableDevice = window.TableDevice || {});

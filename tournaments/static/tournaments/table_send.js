/* Sending: results, corrections and taps go into the queue and are sent in order
 * (offline_queue.js); the answers land on the screen, and a stored board replaces the form
 * (fetched past the worker's kept copy). */
(function (T) {
  "use strict";

  var SWAP_TRIES = 5;
  var swapTurn = 0; // the latest swap asked for: an older one's late answer goes nowhere
  var flushing = null;
  var shownWaiting = null; // {key, round, board}: the action this screen showed as waiting
  var sent = {}; // result key → its stored row's id, for an opponents' tap queued after it

  T.post = function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      signal: T.Q.timeout(),
      headers: {
        "Accept": "application/json",
        "Content-Type": "application/x-www-form-urlencoded",
        "X-CSRFToken": T.csrfToken()
      },
      body: body
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        return { status: response.status, data: data };
      });
    });
  };

  T.swapInSaved = function swapInSaved(url, tries, turn) {
    // The saved board (opponents' tap, traveller) replaces the form. The request skips the
    // service worker's cache (FRESH_HEADER): its copy of this board is the empty form kept
    // for the Wi-Fi drop, and it would put the form back over a stored result. A screen
    // that does not say "saved" yet is asked for again a few times, then taken as the
    // server has it; meanwhile the "saved" status stays and the page's links still work.
    tries = tries === undefined ? SWAP_TRIES : tries;
    turn = turn === undefined ? ++swapTurn : turn;
    var headers = {};
    headers[T.Q.FRESH_HEADER] = "1";
    return fetch(url, { credentials: "same-origin", cache: "no-store", headers: headers,
      signal: T.Q.timeout() }).then(function (response) {
      if (!response.ok) throw new Error(response.status);
      return response.text();
    }).then(function (html) {
      if (turn !== swapTurn) return;
      var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("board-screen");
      if (!fresh) throw new Error("no board");
      if (fresh.dataset.state !== "saved" && tries > 1) throw new Error("not saved yet");
      var current = T.screen();
      if (!current) return;
      if (current.dataset.url && current.dataset.url !== fresh.dataset.url) return; // moved on
      swapTurn++; // swapped: nothing older or in flight replaces it (an open correction)
      current.replaceWith(fresh);
      if (window.htmx) window.htmx.process(fresh);
      T.setup();
    }).catch(function () {
      if (tries > 1 && turn === swapTurn) {
        setTimeout(function () { T.swapInSaved(url, tries - 1, turn); }, T.RETRY_MS / 2);
      }
    });
  };

  T.answered = function answered(item) {
    var entry = item.entry;
    var outcome = item.outcome;
    if (outcome.state === T.Q.SAVED && entry.kind === "result") {
      if (T.saved) T.saved.add(entry.round, entry.board);
      T.dropStuck(entry.round, entry.board); // earlier refused tries of this board are moot
    }
    if (!T.onThisBoard(entry)) return;
    if (outcome.state === T.Q.SAVED) {
      // Sent: the fresh screen must not show it as still waiting.
      T.entries = T.entries.filter(function (e) { return e.key !== entry.key; });
      if (shownWaiting && shownWaiting.key === entry.key) shownWaiting = null;
      T.setStatus("saved", T.text.saved);
      T.screen().dataset.state = "saved";
      if (outcome.url) return T.swapInSaved(outcome.url);
      return;
    }
    if (outcome.held) T.setStatus("waiting", outcome.message);
    else if (outcome.state === T.Q.CONFLICT) T.setStatus("conflict", T.text.conflict_director);
    else if (outcome.state === T.Q.INVALID) {
      T.setStatus("invalid", T.text.invalid);
      var formId = entry.kind === "correct" ? "correct-form"
        : (entry.kind === "dispute" ? "dispute-form" : "result-form");
      T.showFieldErrors(outcome.errors, formId);
      var form = document.getElementById(formId);
      var first = Object.keys(outcome.errors || {})[0];
      // The pad opens on the step the server refused (the lead, say), not on the contract.
      if (form && first && window.TablePad) form.dataset.errorStep = TablePad.stepOf(first);
    } else T.setStatus("refused", T.text.refused + " " + (outcome.message || ""));
  };

  T.dropStuck = function dropStuck(round, board) {
    // Results of this board the server refused: a new try (or a stored one) replaces them.
    return Promise.all(T.entries.filter(function (e) {
      return e.kind === "result" && e.round === String(round) && e.board === String(board) &&
        (e.state === T.Q.INVALID || e.state === T.Q.REFUSED);
    }).map(function (e) { return T.queue.remove(e.key); }));
  };

  T.flush = function flush() {
    if (!T.queue) return Promise.resolve();
    if (flushing) return flushing;
    flushing = T.Q.exclusive(function () {
      return T.queue.flush(T.tableId, T.post).then(function (done) {
        done.forEach(function (item) { // before the lock goes: a confirm may follow
          if ((item.entry.kind === "result" || item.entry.kind === "correct") && item.outcome.pk) {
            sent[item.entry.key] = item.outcome.pk;
          }
        });
        return done;
      });
    }).then(function (done) {
      return Promise.all(done.map(T.answered));
    }).catch(function () { /* tried again later */ }).then(function () {
      flushing = null;
      return T.refresh();
    }).then(function () {
      if (T.entries.some(function (e) { return e.state === T.Q.WAITING; })) T.askForSync();
    });
    return flushing;
  };

  T.noticeSentElsewhere = function noticeSentElsewhere() {
    // The service worker's Background Sync or another tab may send what this screen shows
    // as waiting: its answer went there, so the saved board is fetched here, as when this
    // page sends it. (A refused or conflicting one stays in the queue with its state.)
    var s = T.screen();
    if (!s) { shownWaiting = null; return; }
    if (shownWaiting && (shownWaiting.round !== s.dataset.round ||
        shownWaiting.board !== s.dataset.board)) shownWaiting = null;
    var mine = T.entries.filter(function (e) { return T.onThisBoard(e) && e.kind !== "confirm"; }).pop();
    if (mine && mine.state === T.Q.WAITING) {
      shownWaiting = { key: mine.key, round: s.dataset.round, board: s.dataset.board };
      return;
    }
    if (!shownWaiting) return;
    var gone = !T.entries.some(function (e) { return e.key === shownWaiting.key; });
    shownWaiting = null;
    if (!gone || !s.dataset.url) return;
    T.setStatus("saved", T.text.saved);
    s.dataset.state = "saved";
    T.swapInSaved(s.dataset.url);
  };

  T.submit = function submit(event) {
    if (!T.queue) return; // no IndexedDB: the browser posts the form
    event.preventDefault();
    var form = event.target;
    var params = new URLSearchParams(new FormData(form));
    params.delete("csrfmiddlewaretoken");
    var round = params.get("round");
    var board = params.get("board");
    var same = T.queuedResult(round, board);
    if (same && T.correcting !== same.key) return; // locked: it waits already (a second tap)
    var content = T.Q.content(params);
    if (same && same.content === content) { // "corrected" to what waits: nothing changes
      T.correcting = null;
      return T.render();
    }
    var key = T.newKey();
    params.set("idempotency_key", key);
    form.querySelector("[name=idempotency_key]").value = key;
    form.querySelectorAll(".js-error").forEach(function (node) { node.remove(); });
    function send() {
      return T.dropStuck(round, board).then(function () {
        return T.queue.addResult({ key: key, table: T.tableId, round: round, board: board,
          url: T.resultUrl, body: params.toString(), content: content, csrf: T.csrfToken() });
      }).then(function () {
        T.setStatus("waiting", navigator.onLine === false ? T.text.waiting : T.text.sending);
        return T.refresh();
      }).then(T.flush);
    }
    if (same) return T.askToReplace(form, same, params, send);
    send();
  };

  T.queueConfirm = function queueConfirm(fields) {
    // Under the queue's lock, so no flush runs meanwhile: a tap made while its result was
    // being sent gets that result's id (``sent``) instead of being dropped as an orphan.
    return T.Q.exclusive(function () {
      var pk = fields.pk || (fields.after && sent[fields.after]) || null;
      return T.queue.addConfirm(Object.assign({ key: T.newKey(), table: T.tableId,
        url: T.confirmUrl, csrf: T.csrfToken() }, fields, { pk: pk }));
    }).then(T.refresh).then(T.flush);
  };

  T.queueChange = function queueChange(kind, form) {
    // The table's correction or the opponents' rejection of a stored result.
    if (!T.queue) return false;
    var s = T.screen();
    var params = new URLSearchParams(new FormData(form));
    params.delete("csrfmiddlewaretoken");
    var content = T.Q.content(params);
    var key = T.newKey();
    if (kind === "correct") {
      params.set("idempotency_key", key);
      var keyInput = form.querySelector("[name=idempotency_key]");
      if (keyInput) keyInput.value = key;
    }
    form.querySelectorAll(".js-error").forEach(function (node) { node.remove(); });
    T.queue.addChange({ kind: kind, key: key, table: T.tableId, round: s.dataset.round,
      board: s.dataset.board, pk: form.dataset.result, url: form.getAttribute("action"),
      body: params.toString(), content: content, csrf: T.csrfToken() }).then(function () {
      return T.refresh();
    }).then(T.flush);
    return true;
  };
})(window.TableDevice = window.TableDevice || {});

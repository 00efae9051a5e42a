/* The table device, offline first.
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
 * round" and a reload work with the Wi-Fi down. Without this script the forms post normally.
 */
(function () {
  "use strict";

  var RETRY_MS = 4000;
  var app = document.getElementById("table-app");
  if (!app) return;
  var Q = window.OfflineQueue;

  // Once the device has left its table (the director's PIN taken), the sign-in page forgets
  // the pages kept for it; the queue stays until sent or discarded.
  if (app.dataset.forget && window.caches && Q) caches.delete(Q.CACHE);
  registerWorker();
  if (!app.dataset.table || !Q) return;

  var tableId = app.dataset.table;
  var resultUrl = app.dataset.resultUrl;
  // ".../confirm/0/" → ".../confirm/{pk}/": the queue puts the result's id in.
  var confirmUrl = (app.dataset.confirmUrl || "").replace(/\/0\/$/, "/{pk}/");
  var textNode = document.getElementById("table-text");
  var text = textNode ? JSON.parse(textNode.textContent) : {};
  var queue = null; // the open queue; null: no IndexedDB here, the forms post normally
  var entries = []; // the table's queued actions, as last read

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes); // available outside secure contexts too
    return Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  function format(template, values) {
    return (template || "").replace(/%\((\w+)\)s/g, function (_, name) { return values[name]; });
  }

  /* --- the score and the next board, worked out on the device ---------------------------- */

  var Score = window.TableScore;
  var Round = window.TableRound;
  var saved = null; // the boards this device saw saved (table_round.js)
  try {
    if (Round && window.localStorage) saved = new Round.Saved(window.localStorage, tableId);
  } catch (e) { /* no storage: "Next" as the page drew it */ }

  function picks(source) {
    // The pad's choices, from a form or a queued body.
    var get = source instanceof URLSearchParams ? function (name) { return source.get(name); }
      : function (name) {
        var checked = source.querySelector("input[name=" + name + "]:checked");
        return checked ? checked.value : "";
      };
    return { level: get("level") || "", strain: get("strain") || "", double: get("double") || "",
      declarer: get("declarer") || "", made: get("made") || "" };
  }

  function showScore(target, scored) {
    // As _score.html draws it: "NS +400", "0", or the hint while something is missing.
    if (!target) return;
    target.textContent = "";
    if (!scored) {
      var hint = document.createElement("span");
      hint.className = "muted";
      hint.textContent = text.choose;
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
      side.textContent = scored.ns > 0 ? text.ns : text.ew;
      box.appendChild(side);
      box.appendChild(document.createTextNode(" +" + Math.abs(scored.ns)));
    }
    target.appendChild(box);
  }

  function scoreOf(source) {
    var s = screen();
    if (!Score || !s) return null;
    return Score.fromPad(picks(source), s.dataset.vulnerability || "");
  }

  function showPadScore(form) {
    var target = form.querySelector(".preview");
    if (target && Score) showScore(target, scoreOf(form));
  }

  function playedHere(round, board) {
    return (saved && saved.has(round, board)) || inQueue(round, board);
  }

  function renderNext() {
    // "Next board" from the round's boards and what is saved or queued: never one played.
    var s = screen();
    var link = document.getElementById("next-board");
    if (!s || !link || !s.dataset.boards || !s.dataset.boardUrl) return;
    var round = s.dataset.round;
    var next = Round ? Round.nextBoard(s.dataset.boards.split(","), s.dataset.board,
      function (b) { return playedHere(round, b); }) : null;
    var back = document.getElementById("round-link");
    link.hidden = !next;
    if (back) back.classList.toggle("secondary", !!next);
    if (!next) return;
    link.href = s.dataset.boardUrl.replace(/0\/$/, next + "/");
    link.textContent = format(text.next_board, { number: next });
  }

  function rememberRound() {
    // The server's round page is the truth for its round; a saved board screen for its board.
    var round = document.getElementById("round");
    var links = document.querySelectorAll("[data-board-key]");
    if (saved && round && links.length) {
      var boards = [], done = [];
      links.forEach(function (link) {
        var parts = link.dataset.boardKey.split("-");
        boards.push(parts[1]);
        if (link.classList.contains("done")) done.push(parts[1]);
      });
      saved.reset(round.dataset.round, boards, done);
    }
    var s = screen();
    if (saved && s && s.dataset.state === "saved") saved.add(s.dataset.round, s.dataset.board);
  }

  /* --- the service worker and the pages it keeps ---------------------------------------- */

  function registerWorker() {
    if (!("serviceWorker" in navigator) || !app.dataset.worker) return;
    navigator.serviceWorker.register(app.dataset.worker, { scope: app.dataset.scope })
      .then(keepRound, function () { /* no worker: the queue still works */ });
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "table-queue-synced") refresh();
    });
  }

  function keepRound() {
    // On the round page: fetch its pages (and the next round's) into the worker's cache.
    var listNode = document.getElementById("table-offline");
    if (!listNode || !window.caches || navigator.onLine === false) return;
    var urls = JSON.parse(listNode.textContent);
    return navigator.serviceWorker.ready.then(function () {
      return caches.open(Q.CACHE);
    }).then(function (cache) {
      return Promise.all(urls.map(function (url) {
        return fetch(url, { credentials: "same-origin" }).then(function (response) {
          if (response.ok && !response.redirected) return cache.put(url, response);
        });
      }));
    }).then(function () {
      app.dataset.offline = "ready";
    }, function () { /* kept what could be fetched */ });
  }

  function askForSync() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.sync) return registration.sync.register("table-queue");
    }).catch(function () { /* the page's own retries still run */ });
  }

  /* --- what the screen says ------------------------------------------------------------ */

  function screen() {
    return document.getElementById("board-screen");
  }

  function onThisBoard(entry) {
    var s = screen();
    return s && s.dataset.round === String(entry.round) && s.dataset.board === String(entry.board);
  }

  function setStatus(state, message) {
    var status = document.getElementById("entry-status");
    if (!status) return;
    status.dataset.state = state;
    status.textContent = message;
  }

  function showFieldErrors(errors, formId) {
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
  }

  var WAITING_TEXT = { confirm: "confirm_waiting", correct: "correct_waiting",
    dispute: "dispute_waiting", result: "waiting" };

  function describe(e) {
    if (e.state === Q.WAITING && e.message) return e.message; // held: its round is not open
    if (e.state === Q.WAITING) return text[WAITING_TEXT[e.kind] || "waiting"];
    if (e.state === Q.CONFLICT) return text.conflict_director;
    if (e.state === Q.INVALID) return text.invalid + " " + (e.message || "");
    return text.refused + " " + (e.message || "");
  }

  function render() {
    var waiting = entries.filter(function (e) { return e.state === Q.WAITING; });
    var stuck = entries.length - waiting.length;
    var badge = document.getElementById("sync-status");
    if (badge) {
      badge.dataset.state = stuck ? "refused" : (waiting.length ? "waiting" : "saved");
      badge.dataset.count = String(waiting.length);
      badge.textContent = waiting.length ? format(text.pending, { count: waiting.length })
        : (stuck ? text.needs_you : text.all_saved);
    }
    var list = document.getElementById("pending-list");
    if (list) {
      list.textContent = "";
      entries.forEach(function (e) {
        var item = document.createElement("li");
        item.dataset.state = e.state;
        item.dataset.kind = e.kind;
        var label = document.createElement("span");
        label.textContent = format(text.board, { board: e.board }) + ": " + describe(e);
        item.appendChild(label);
        if (e.state !== Q.WAITING) {
          var discard = document.createElement("button");
          discard.type = "button";
          discard.className = "secondary";
          discard.textContent = text.discard;
          discard.addEventListener("click", function () { queue.remove(e.key).then(refresh); });
          item.appendChild(discard);
        }
        list.appendChild(item);
      });
      list.hidden = entries.length === 0;
    }
    renderRound();
    noticeSentElsewhere();
    renderBoard();
    renderNext();
  }

  var shownWaiting = null; // {key, round, board}: the action this screen showed as waiting

  function noticeSentElsewhere() {
    // The service worker's Background Sync or another tab may send what this screen shows
    // as waiting: its answer went there, so the saved board is fetched here, as when this
    // page sends it. (A refused or conflicting one stays in the queue with its state.)
    var s = screen();
    if (!s) { shownWaiting = null; return; }
    if (shownWaiting && (shownWaiting.round !== s.dataset.round ||
        shownWaiting.board !== s.dataset.board)) shownWaiting = null;
    var mine = entries.filter(function (e) { return onThisBoard(e) && e.kind !== "confirm"; }).pop();
    if (mine && mine.state === Q.WAITING) {
      shownWaiting = { key: mine.key, round: s.dataset.round, board: s.dataset.board };
      return;
    }
    if (!shownWaiting) return;
    var gone = !entries.some(function (e) { return e.key === shownWaiting.key; });
    shownWaiting = null;
    if (!gone || !s.dataset.url) return;
    setStatus("saved", text.saved);
    s.dataset.state = "saved";
    swapInSaved(s.dataset.url);
  }

  function queuedResult(round, board) {
    return entries.filter(function (e) {
      return e.kind === "result" && e.round === String(round) && e.board === String(board) &&
        (e.state === Q.WAITING || e.state === Q.CONFLICT);
    })[0];
  }

  function inQueue(round, board) {
    // A result for this board still in the queue, whatever its state (refused ones too).
    return entries.some(function (e) {
      return e.kind === "result" && e.round === String(round) && e.board === String(board);
    });
  }

  function renderRound() {
    var links = document.querySelectorAll("[data-board-key]");
    var allIn = links.length > 0;
    links.forEach(function (link) {
      var parts = link.dataset.boardKey.split("-");
      var here = queuedResult(parts[0], parts[1]);
      var badgeNode = link.querySelector(".local-state");
      if (here && badgeNode) {
        badgeNode.classList.add("waiting");
        badgeNode.dataset.state = here.state;
        badgeNode.textContent = here.state === Q.CONFLICT ? text.conflict_short : text.waiting_short;
      } else if (badgeNode && badgeNode.classList.contains("waiting") &&
                 !inQueue(parts[0], parts[1])) {
        // Sent since it was marked here (the page was drawn before it was stored): saved.
        badgeNode.classList.remove("waiting", "badge-none");
        badgeNode.classList.add("badge-valid");
        badgeNode.dataset.state = "saved";
        badgeNode.textContent = text.saved_short;
        link.classList.add("done");
      }
      if (!here && !link.classList.contains("done")) allIn = false;
    });
    // Every board saved or waiting to be sent: where everyone moves, and the next round.
    var moves = document.getElementById("moves");
    if (moves && allIn) moves.hidden = false;
  }

  function renderSaved(s) {
    // A correction or a rejection of the saved result, waiting to be sent.
    var change = entries.filter(function (e) {
      return (e.kind === "correct" || e.kind === "dispute") && onThisBoard(e);
    }).pop();
    if (!change) return;
    if (change.state === Q.WAITING) setStatus("waiting", describe(change));
    else setStatus(change.state, describe(change));
    s.querySelectorAll("details.table-action").forEach(function (box) { box.open = false; });
  }

  function renderBoard() {
    var s = screen();
    if (s && s.dataset.state === "saved") return renderSaved(s);
    if (!s) return;
    var here = queuedResult(s.dataset.round, s.dataset.board);
    var nav = document.getElementById("offline-nav");
    if (nav) nav.hidden = !here;
    var queuedScore = document.getElementById("offline-score");
    if (queuedScore) {
      queuedScore.hidden = !here;
      if (here) showScore(queuedScore, scoreOf(new URLSearchParams(here.body)));
    }
    if (correcting && (!here || here.key !== correcting)) correcting = null; // sent meanwhile
    var form = document.getElementById("result-form");
    if (form) lockPad(form, here && correcting !== here.key ? here : null);
    var correctButton = document.getElementById("offline-correct");
    if (correctButton) {
      correctButton.hidden = !here || here.state !== Q.WAITING || correcting === here.key;
    }
    var confirmBox = document.getElementById("offline-confirm");
    var confirmed = here && entries.some(function (e) {
      return e.kind === "confirm" && e.after === here.key;
    });
    if (confirmBox) {
      confirmBox.hidden = !here || here.state !== Q.WAITING || confirmed || !!correcting;
    }
    if (!here) return;
    if (here.state === Q.CONFLICT) setStatus("conflict", text.conflict_director);
    else if (correcting) setStatus("waiting", text.correcting);
    else if (confirmed) setStatus("waiting", text.waiting + " " + text.confirm_waiting);
    else if (replaced === here.key) setStatus("waiting", text.replaced);
    else setStatus("waiting", text.waiting);
  }

  /* --- a result waiting to be sent is locked: changing it is an explicit correction ------- */

  var correcting = null; // the key of the waiting result the table chose to correct
  var replaced = null; // the key of a correction that replaced a waiting result

  var PICKS = ["level", "strain", "double", "declarer", "made", "lead_suit", "lead_rank"];

  function setPicks(form, params) {
    PICKS.forEach(function (name) {
      var value = params.get(name) || "";
      form.querySelectorAll("input[name=" + name + "]").forEach(function (input) {
        input.checked = input.value === value;
      });
    });
    fitToLevel(form);
  }

  var stepper = null; // the pad one step at a time, on a phone (table_pad.js)

  function lockPad(form, waiting) {
    // ``waiting``: the queued result the pad shows, its buttons locked; null: free to tap.
    var locked = !!waiting;
    var was = form.classList.contains("locked");
    if (locked) setPicks(form, new URLSearchParams(waiting.body));
    if (stepper && locked) stepper.go("score");
    else if (stepper && was) stepper.go("contract"); // opened for a correction
    form.classList.toggle("locked", locked);
    form.querySelectorAll(".picks input").forEach(function (input) { input.disabled = locked; });
    if (locked) showPadScore(form);
  }

  function words() {
    return { nt: text.nt, ns: text.ns, ew: text.ew, passed: text.passed, seats: text.seats };
  }

  function askToReplace(form, waiting, params, send) {
    // The old and the new result side by side; only "Replace" changes the queue.
    var box = document.getElementById("offline-replace");
    var s = screen();
    if (!box || !Score) return send();
    var vul = s.dataset.vulnerability || "";
    document.getElementById("replace-old").textContent =
      Score.describe(picks(new URLSearchParams(waiting.body)), vul, words());
    document.getElementById("replace-new").textContent = Score.describe(picks(params), vul, words());
    box.hidden = false;
    document.getElementById("replace-yes").onclick = function () {
      box.hidden = true;
      correcting = null;
      send().then(function () { replaced = params.get("idempotency_key"); render(); });
    };
    document.getElementById("replace-no").onclick = function () {
      box.hidden = true;
      correcting = null;
      render(); // the pad shows the waiting result again
    };
  }

  function refresh() {
    if (!queue) return Promise.resolve();
    return queue.list(tableId).then(function (rows) {
      entries = rows;
      render();
    });
  }

  /* --- sending --------------------------------------------------------------------------- */

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      signal: Q.timeout(),
      headers: {
        "Accept": "application/json",
        "Content-Type": "application/x-www-form-urlencoded",
        "X-CSRFToken": csrfToken()
      },
      body: body
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        return { status: response.status, data: data };
      });
    });
  }

  var SWAP_TRIES = 5;
  var swapTurn = 0; // the latest swap asked for: an older one's late answer goes nowhere

  function swapInSaved(url, tries, turn) {
    // The saved board (opponents' tap, traveller) replaces the form. The request skips the
    // service worker's cache (FRESH_HEADER): its copy of this board is the empty form kept
    // for the Wi-Fi drop, and it would put the form back over a stored result. A screen
    // that does not say "saved" yet is asked for again a few times, then taken as the
    // server has it; meanwhile the "saved" status stays and the page's links still work.
    tries = tries === undefined ? SWAP_TRIES : tries;
    turn = turn === undefined ? ++swapTurn : turn;
    var headers = {};
    headers[Q.FRESH_HEADER] = "1";
    return fetch(url, { credentials: "same-origin", cache: "no-store", headers: headers,
      signal: Q.timeout() }).then(function (response) {
      if (!response.ok) throw new Error(response.status);
      return response.text();
    }).then(function (html) {
      if (turn !== swapTurn) return;
      var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("board-screen");
      if (!fresh) throw new Error("no board");
      if (fresh.dataset.state !== "saved" && tries > 1) throw new Error("not saved yet");
      var current = screen();
      if (!current) return;
      if (current.dataset.url && current.dataset.url !== fresh.dataset.url) return; // moved on
      swapTurn++; // swapped: nothing older or in flight replaces it (an open correction)
      current.replaceWith(fresh);
      if (window.htmx) window.htmx.process(fresh);
      setup();
    }).catch(function () {
      if (tries > 1 && turn === swapTurn) {
        setTimeout(function () { swapInSaved(url, tries - 1, turn); }, RETRY_MS / 2);
      }
    });
  }

  function answered(item) {
    var entry = item.entry;
    var outcome = item.outcome;
    if (outcome.state === Q.SAVED && saved && entry.kind === "result") {
      saved.add(entry.round, entry.board);
    }
    if (!onThisBoard(entry)) return;
    if (outcome.state === Q.SAVED) {
      // Sent: the fresh screen must not show it as still waiting.
      entries = entries.filter(function (e) { return e.key !== entry.key; });
      if (shownWaiting && shownWaiting.key === entry.key) shownWaiting = null;
      setStatus("saved", text.saved);
      screen().dataset.state = "saved";
      if (outcome.url) return swapInSaved(outcome.url);
      return;
    }
    if (outcome.held) setStatus("waiting", outcome.message);
    else if (outcome.state === Q.CONFLICT) setStatus("conflict", text.conflict_director);
    else if (outcome.state === Q.INVALID) {
      setStatus("invalid", text.invalid);
      showFieldErrors(outcome.errors, entry.kind === "correct" ? "correct-form"
        : (entry.kind === "dispute" ? "dispute-form" : "result-form"));
    } else setStatus("refused", text.refused + " " + (outcome.message || ""));
  }

  var flushing = null;

  function flush() {
    if (!queue) return Promise.resolve();
    if (flushing) return flushing;
    flushing = Q.exclusive(function () {
      return queue.flush(tableId, post);
    }).then(function (done) {
      return Promise.all(done.map(answered));
    }).catch(function () { /* tried again later */ }).then(function () {
      flushing = null;
      return refresh();
    }).then(function () {
      if (entries.some(function (e) { return e.state === Q.WAITING; })) askForSync();
    });
    return flushing;
  }

  /* --- the entry form and the opponents' tap --------------------------------------------- */

  function submit(event) {
    if (!queue) return; // no IndexedDB: the browser posts the form
    event.preventDefault();
    var form = event.target;
    var params = new URLSearchParams(new FormData(form));
    params.delete("csrfmiddlewaretoken");
    var round = params.get("round");
    var board = params.get("board");
    var same = queuedResult(round, board);
    if (same && correcting !== same.key) return; // locked: it waits already (a second tap)
    var content = Q.content(params);
    if (same && same.content === content) { // "corrected" to what waits: nothing changes
      correcting = null;
      return render();
    }
    var key = newKey();
    params.set("idempotency_key", key);
    form.querySelector("[name=idempotency_key]").value = key;
    form.querySelectorAll(".js-error").forEach(function (node) { node.remove(); });
    function send() {
      return queue.addResult({ key: key, table: tableId, round: round, board: board,
        url: resultUrl, body: params.toString(), content: content, csrf: csrfToken() })
        .then(function () {
          setStatus("waiting", navigator.onLine === false ? text.waiting : text.sending);
          return refresh();
        }).then(flush);
    }
    if (same) return askToReplace(form, same, params, send);
    send();
  }

  function queueConfirm(fields) {
    return queue.addConfirm(Object.assign({ key: newKey(), table: tableId, url: confirmUrl,
      csrf: csrfToken() }, fields)).then(refresh).then(flush);
  }

  function queueChange(kind, form) {
    // The table's correction or the opponents' rejection of a stored result.
    if (!queue) return false;
    var s = screen();
    var params = new URLSearchParams(new FormData(form));
    params.delete("csrfmiddlewaretoken");
    var content = Q.content(params);
    var key = newKey();
    if (kind === "correct") {
      params.set("idempotency_key", key);
      var keyInput = form.querySelector("[name=idempotency_key]");
      if (keyInput) keyInput.value = key;
    }
    form.querySelectorAll(".js-error").forEach(function (node) { node.remove(); });
    queue.addChange({ kind: kind, key: key, table: tableId, round: s.dataset.round,
      board: s.dataset.board, pk: form.dataset.result, url: form.getAttribute("action"),
      body: params.toString(), content: content, csrf: csrfToken() }).then(function () {
      return refresh();
    }).then(flush);
    return true;
  }

  function fitToLevel(form) {
    // Only results possible for the chosen level are offered; Pass needs nothing more.
    var checked = form.querySelector("input[name=level]:checked");
    var level = checked ? checked.value : "";
    form.querySelectorAll(".not-pass").forEach(function (node) { node.hidden = level === "PASS"; });
    var n = parseInt(level, 10);
    form.querySelectorAll("[data-made]").forEach(function (pick) {
      var made = pick.dataset.made;
      var delta = made === "=" ? 0 : parseInt(made, 10);
      var ok = isNaN(n) || (n + 6 + delta >= 0 && n + 6 + delta <= 13);
      pick.hidden = !ok;
      if (!ok) pick.querySelector("input").checked = false;
    });
  }

  function setup() {
    var form = document.getElementById("result-form");
    if (form && !form.dataset.ready) {
      form.dataset.ready = "1";
      if (window.TablePad && window.matchMedia) {
        stepper = new TablePad.Stepper(form, window.matchMedia("(max-width: 640px)"), text.back);
      }
      form.addEventListener("submit", submit);
      form.addEventListener("change", function (event) {
        if (event.target.name === "level") fitToLevel(form);
        showPadScore(form);
      });
      fitToLevel(form);
    }
    var correctForm = document.getElementById("correct-form");
    if (correctForm && !correctForm.dataset.ready) {
      correctForm.dataset.ready = "1";
      correctForm.addEventListener("submit", function (event) {
        if (queueChange("correct", correctForm)) event.preventDefault();
      });
      correctForm.addEventListener("change", function (event) {
        if (event.target.name === "level") fitToLevel(correctForm);
        showPadScore(correctForm);
      });
      fitToLevel(correctForm);
    }
    var disputeForm = document.getElementById("dispute-form");
    if (disputeForm && !disputeForm.dataset.ready) {
      disputeForm.dataset.ready = "1";
      disputeForm.addEventListener("submit", function (event) {
        if (!disputeForm.reason.value.trim()) return; // the server says what is missing
        if (queueChange("dispute", disputeForm)) event.preventDefault();
      });
    }
    var offlineCorrect = document.getElementById("offline-correct");
    if (offlineCorrect && !offlineCorrect.dataset.ready) {
      offlineCorrect.dataset.ready = "1";
      offlineCorrect.addEventListener("click", function () {
        var s = screen();
        var here = queuedResult(s.dataset.round, s.dataset.board);
        if (here) correcting = here.key;
        render();
      });
    }
    var offlineConfirm = document.getElementById("offline-confirm-button");
    if (offlineConfirm && !offlineConfirm.dataset.ready) {
      offlineConfirm.dataset.ready = "1";
      offlineConfirm.addEventListener("click", function () {
        var s = screen();
        var here = queuedResult(s.dataset.round, s.dataset.board);
        if (here) queueConfirm({ round: here.round, board: here.board, after: here.key });
      });
    }
    var confirmForm = document.querySelector(".confirm-form[data-result]");
    if (confirmForm && !confirmForm.dataset.ready) {
      confirmForm.dataset.ready = "1";
      confirmForm.addEventListener("submit", function (event) {
        if (!queue) return;
        event.preventDefault();
        var s = screen();
        queueConfirm({ round: s.dataset.round, board: s.dataset.board,
          pk: confirmForm.dataset.result }).then(function () {
          var left = entries.some(function (e) { return e.kind === "confirm" && onThisBoard(e); });
          if (left) setStatus("waiting", text.confirm_waiting);
        });
      });
    }
    rememberRound();
    render();
  }

  document.body.addEventListener("htmx:sendError", function (event) {
    // Offline the server cannot score the pad: the device does (table_score.js).
    var target = event.detail && event.detail.target;
    if (target && target.id === "director-call") {
      var note = target.querySelector(".call-offline") || document.createElement("span");
      note.className = "call-offline";
      note.setAttribute("role", "alert");
      note.textContent = text.call_offline;
      target.appendChild(note);
      return;
    }
    var form = target && target.closest("form");
    if (!form || !target.classList.contains("preview")) return;
    if (Score) showScore(target, scoreOf(form));
    else target.textContent = text.offline_preview;
  });
  var wakeLock = null;

  function keepAwake() {
    // The screen stays on while the table plays (Screen Wake Lock, where the browser has it);
    // the browser lets it go when the page is hidden, so it is asked for again on return.
    if (!navigator.wakeLock || wakeLock || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      app.dataset.awake = "1";
      lock.addEventListener("release", function () { wakeLock = null; delete app.dataset.awake; });
    }, function () { /* refused (battery saver): the screen may sleep */ });
  }

  window.addEventListener("online", flush);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      flush();
      keepAwake();
    }
  });
  keepAwake();
  setInterval(flush, RETRY_MS);

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
        return queue.addResult({ key: e.key, table: e.table, round: e.round, board: e.board,
          url: resultUrl, body: e.body, content: e.content, csrf: csrfToken(), at: e.at });
      });
    }, Promise.resolve()).then(function () { localStorage.removeItem(OLD); });
  }

  Q.open(window.indexedDB).then(function (opened) {
    queue = opened;
    return adoptOldQueue();
  }).then(function () {
    setup();
    return refresh();
  }).then(flush, function () {
    setup(); // no IndexedDB (a private window in some browsers): plain form posts
  });
})();

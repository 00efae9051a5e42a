/* Score entry that survives club Wi-Fi.
 *
 * Each result is kept in localStorage with an idempotency key before it is sent, and sent
 * again (every few seconds, and when the browser says it is online) until the server
 * answers. The server stores a key once and compares contents, so sending twice is safe;
 * a different result for a board already stored comes back as "conflict" and is shown as
 * sent to the director. Without this script the form posts normally.
 */
(function () {
  "use strict";

  var STORE = "clubsite.table.queue.v1";
  var RETRY_MS = 4000;
  var app = document.getElementById("table-app");
  if (!app || !app.dataset.table) return;
  var tableId = app.dataset.table;
  var resultUrl = app.dataset.resultUrl;
  var textNode = document.getElementById("table-text");
  var text = textNode ? JSON.parse(textNode.textContent) : {};
  var busy = false;

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

  function load() {
    try {
      return JSON.parse(localStorage.getItem(STORE) || "[]");
    } catch (e) {
      return [];
    }
  }

  function store(queue) {
    localStorage.setItem(STORE, JSON.stringify(queue));
  }

  function mine(queue) {
    return queue.filter(function (e) { return e.table === tableId; });
  }

  function format(template, values) {
    return (template || "").replace(/%\((\w+)\)s/g, function (_, name) { return values[name]; });
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

  function showFieldErrors(errors) {
    var form = document.getElementById("result-form");
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

  function renderQueue() {
    var entries = mine(load());
    var waiting = entries.filter(function (e) { return e.state === "waiting"; });
    var badge = document.getElementById("sync-status");
    if (badge) {
      var refused = entries.length - waiting.length;
      badge.dataset.state = refused ? "refused" : (waiting.length ? "waiting" : "saved");
      badge.textContent = entries.length ? format(text.pending, { count: entries.length })
        : text.all_saved;
    }
    var list = document.getElementById("pending-list");
    if (list) {
      list.innerHTML = "";
      entries.forEach(function (e) {
        var item = document.createElement("li");
        item.dataset.state = e.state;
        var label = document.createElement("span");
        label.textContent = format(text.board, { board: e.board }) + ": " +
          (e.state === "waiting" ? text.waiting : (text.refused + " " + (e.message || "")));
        item.appendChild(label);
        if (e.state !== "waiting") {
          var discard = document.createElement("button");
          discard.type = "button";
          discard.className = "secondary";
          discard.textContent = text.discard;
          discard.addEventListener("click", function () { forget(e.key); renderQueue(); });
          item.appendChild(discard);
        }
        list.appendChild(item);
      });
      list.hidden = entries.length === 0;
    }
    document.querySelectorAll("[data-board-key]").forEach(function (link) {
      var pending = entries.some(function (e) { return link.dataset.boardKey === e.round + "-" + e.board; });
      var badgeNode = link.querySelector(".local-state");
      if (pending && badgeNode) {
        badgeNode.classList.add("waiting");
        badgeNode.textContent = text.waiting_short;
      }
    });
    var s = screen();
    if (s && s.dataset.state !== "saved") {
      var here = entries.filter(onThisBoard)[0];
      if (here && here.state === "waiting") setStatus("waiting", text.waiting);
    }
  }

  /* --- the queue ----------------------------------------------------------------------- */

  function update(key, changes) {
    var queue = load();
    queue.forEach(function (e) { if (e.key === key) Object.assign(e, changes); });
    store(queue);
  }

  function forget(key) {
    store(load().filter(function (e) { return e.key !== key; }));
  }

  function swapInSaved(url) {
    // The saved board (opponents' tap, traveller) replaces the form; if that fails the
    // "saved" status stays and the links on the page still work.
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) throw new Error(response.status);
      return response.text();
    }).then(function (html) {
      var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("board-screen");
      var current = screen();
      if (fresh && current) {
        current.replaceWith(fresh);
        if (window.htmx) window.htmx.process(fresh);
        setup();
      }
    }).catch(function () { /* keep the status shown */ });
  }

  function send(entry) {
    return fetch(resultUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Accept": "application/json",
        "Content-Type": "application/x-www-form-urlencoded",
        "X-CSRFToken": csrfToken()
      },
      body: entry.body
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        return { status: response.status, data: data };
      });
    }).then(function (answer) {
      var here = onThisBoard(entry);
      if (answer.status >= 500) {
        if (here) setStatus("waiting", text.waiting);
        return;
      }
      if (answer.status === 403) {
        update(entry.key, { state: "refused", message: answer.data.error || "" });
        if (here) setStatus("refused", text.refused + " " + (answer.data.error || ""));
        return;
      }
      forget(entry.key);
      if (answer.status === 409) {
        // The key was used for another result: nothing was stored, and the server says why.
        if (here) setStatus("invalid", answer.data.error || text.invalid);
        return;
      }
      if (answer.status === 400) {
        if (here) {
          setStatus("invalid", text.invalid);
          showFieldErrors(answer.data.errors);
        }
        return;
      }
      if (answer.data.outcome === "conflict") {
        if (here) setStatus("conflict", text.conflict);
        return;
      }
      if (here) {
        setStatus("saved", text.saved);
        screen().dataset.state = "saved";
        return swapInSaved(answer.data.url);
      }
    }, function () {
      // No answer: the network is down (or dropped the reply). Keep it and retry.
      if (onThisBoard(entry)) setStatus("waiting", text.waiting);
    });
  }

  function flush(includeRefused) {
    if (busy) return Promise.resolve();
    var entries = mine(load()).filter(function (e) {
      return e.state === "waiting" || (includeRefused && e.state === "refused");
    });
    if (!entries.length) {
      renderQueue();
      return Promise.resolve();
    }
    busy = true;
    return entries.reduce(function (chain, e) {
      return chain.then(function () { return send(e); });
    }, Promise.resolve()).then(function () {
      busy = false;
      renderQueue();
    }, function () {
      busy = false;
      renderQueue();
    });
  }

  /* --- the entry form ------------------------------------------------------------------ */

  function content(params) {
    var copy = new URLSearchParams(params);
    copy.delete("idempotency_key");
    copy.sort();
    return copy.toString();
  }

  function submit(event) {
    var form = event.target;
    var params;
    try {
      params = new URLSearchParams(new FormData(form));
      params.delete("csrfmiddlewaretoken");
      load();
    } catch (e) {
      return; // no storage: let the browser post the form
    }
    event.preventDefault();
    var round = params.get("round");
    var board = params.get("board");
    var queue = load();
    var same = queue.filter(function (e) {
      return e.table === tableId && e.round === round && e.board === board;
    })[0];
    var key = same && same.content === content(params) ? same.key : newKey();
    params.set("idempotency_key", key);
    form.querySelector("[name=idempotency_key]").value = key;
    queue = queue.filter(function (e) { return e !== same && e.key !== (same && same.key); });
    var entry = { key: key, table: tableId, round: round, board: board, body: params.toString(),
      content: content(params), state: "waiting", at: Date.now() };
    queue.push(entry);
    store(queue);
    form.querySelectorAll(".js-error").forEach(function (node) { node.remove(); });
    setStatus("waiting", navigator.onLine === false ? text.waiting : text.sending);
    renderQueue();
    if (busy) return;
    busy = true;
    send(entry).then(function () { busy = false; renderQueue(); },
      function () { busy = false; renderQueue(); });
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
      form.addEventListener("submit", submit);
      form.addEventListener("change", function (event) {
        if (event.target.name === "level") fitToLevel(form);
      });
      fitToLevel(form);
    }
    renderQueue();
  }

  document.body.addEventListener("htmx:sendError", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.id === "preview") target.textContent = text.offline_preview;
  });
  window.addEventListener("online", function () { flush(false); });
  setInterval(function () { flush(false); }, RETRY_MS);
  setup();
  flush(true);
})();

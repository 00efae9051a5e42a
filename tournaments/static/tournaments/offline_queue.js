/* The table device's queue of actions waiting for the network, kept in IndexedDB.
 *
 * Shared by the page (table.js) and the service worker (/table/sw.js, for Background Sync),
 * and by the unit tests (node --test tests/js/, with fake-indexeddb): so it touches no DOM
 * and takes IndexedDB and fetch as arguments. Sending (``flush``, what an answer means) is
 * offline_send.js, loaded after this file. UMD: `OfflineQueue` in a browser or worker,
 * `module.exports` in node.
 *
 * An action is a result ("result": posted to the table's JSON endpoint under its idempotency
 * key), the opponents' tap ("confirm": posted once the result's id is known), or a change to
 * a stored result: the table's correction ("correct") or the opponents' rejection with a
 * reason ("dispute"), both posted to the result's own URL. Actions are
 * sent in the order they were queued; the first that gets no answer stops the run, so a
 * later action never overtakes an earlier one. The server stores a key once, so sending an
 * action twice (the page and the worker both syncing, a reply lost) stores it once.
 */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.OfflineQueue = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var DB_NAME = "clubsite-table";
  var STORE = "actions";
  var VERSION = 1;

  // What the server's answer means for an action still queued.
  var SAVED = "saved"; // stored (created or already there): leaves the queue
  var WAITING = "waiting"; // not sent yet, or no answer: sent again later
  var CONFLICT = "conflict"; // another result is stored for the board: the director decides
  var INVALID = "invalid"; // the server says the result is wrong; nothing stored
  var REFUSED = "refused"; // this device may not do it (signed out, session over, ...)

  function promised(request) {
    return new Promise(function (resolve, reject) {
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function done(tx) {
    return new Promise(function (resolve, reject) {
      tx.oncomplete = function () { resolve(); };
      tx.onerror = function () { reject(tx.error); };
      tx.onabort = function () { reject(tx.error); };
    });
  }

  function Queue(db) {
    this.db = db;
  }

  Queue.prototype._tx = function (mode) {
    var tx = this.db.transaction(STORE, mode);
    return { tx: tx, store: tx.objectStore(STORE) };
  };

  /* Every action of ``table`` (all tables when omitted), oldest first. */
  Queue.prototype.list = function (table) {
    var t = this._tx("readonly");
    return promised(t.store.getAll()).then(function (rows) {
      return rows.filter(function (e) { return table === undefined || e.table === String(table); })
        .sort(function (a, b) { return a.seq - b.seq; });
    });
  };

  Queue.prototype.get = function (key) {
    var t = this._tx("readonly");
    return promised(t.store.index("key").get(key)).then(function (row) { return row || null; });
  };

  /* Queue a result. The same result tapped again keeps its key (one line on the server);
   * a different one for a board whose result is still waiting replaces it (a correction
   * before it was sent), and so does its queued confirm. */
  Queue.prototype.addResult = function (fields) {
    var self = this;
    var table = String(fields.table);
    var round = String(fields.round);
    var board = String(fields.board);
    return this.list(table).then(function (rows) {
      var same = rows.filter(function (e) {
        return e.kind === "result" && e.round === round && e.board === board && e.state === WAITING;
      })[0];
      if (same && same.content === fields.content) return same;
      var t = self._tx("readwrite");
      if (same) {
        rows.forEach(function (e) {
          if (e === same || (e.kind === "confirm" && e.after === same.key)) t.store.delete(e.seq);
        });
      }
      var entry = {
        kind: "result", key: fields.key, table: table, round: round, board: board,
        url: fields.url, body: fields.body, content: fields.content, csrf: fields.csrf || "",
        state: WAITING, at: fields.at || Date.now()
      };
      t.store.add(entry);
      return done(t.tx).then(function () { return self.get(entry.key); });
    });
  };

  /* Queue the opponents' tap for a board: after the result queued under ``after`` (its id
   * comes back when it is sent), or for a stored result whose id ``pk`` is known. */
  Queue.prototype.addConfirm = function (fields) {
    var self = this;
    var table = String(fields.table);
    return this.list(table).then(function (rows) {
      var already = rows.filter(function (e) {
        return e.kind === "confirm" && e.round === String(fields.round) &&
          e.board === String(fields.board) && e.state === WAITING;
      })[0];
      if (already) return already;
      var t = self._tx("readwrite");
      var entry = {
        kind: "confirm", key: fields.key, table: table, round: String(fields.round),
        board: String(fields.board), after: fields.after || null, pk: fields.pk || null,
        url: fields.url, body: "", csrf: fields.csrf || "", state: WAITING,
        at: fields.at || Date.now()
      };
      t.store.add(entry);
      return done(t.tx).then(function () { return self.get(entry.key); });
    });
  };

  /* Queue a change to a stored result (``kind`` "correct" or "dispute", ``pk`` known). A
   * newer one of the same kind for the same board, still waiting, replaces the older; the
   * same one tapped again is kept once. */
  Queue.prototype.addChange = function (fields) {
    var self = this;
    var table = String(fields.table);
    var round = String(fields.round);
    var board = String(fields.board);
    return this.list(table).then(function (rows) {
      var same = rows.filter(function (e) {
        return e.kind === fields.kind && e.round === round && e.board === board &&
          e.state === WAITING;
      })[0];
      if (same && same.content === fields.content) return same;
      var t = self._tx("readwrite");
      if (same) t.store.delete(same.seq);
      var entry = {
        kind: fields.kind, key: fields.key, table: table, round: round, board: board,
        after: null, pk: fields.pk, url: fields.url, body: fields.body,
        content: fields.content, csrf: fields.csrf || "", state: WAITING,
        at: fields.at || Date.now()
      };
      t.store.add(entry);
      return done(t.tx).then(function () { return self.get(entry.key); });
    });
  };

  Queue.prototype.update = function (key, changes) {
    var t = this._tx("readwrite");
    var request = t.store.index("key").get(key);
    request.onsuccess = function () {
      if (request.result) t.store.put(Object.assign(request.result, changes));
    };
    return done(t.tx);
  };

  Queue.prototype.remove = function (key) {
    var t = this._tx("readwrite");
    var request = t.store.index("key").getKey(key);
    request.onsuccess = function () {
      if (request.result !== undefined) t.store.delete(request.result);
    };
    return done(t.tx);
  };

  /* How many actions still wait to be sent (the "pending" count). */
  Queue.prototype.pending = function (table) {
    return this.list(table).then(function (rows) {
      return rows.filter(function (e) { return e.state === WAITING; }).length;
    });
  };

  /* Forget what this device keeps for ``table`` (leaving the table). */
  Queue.prototype.clear = function (table) {
    var self = this;
    return this.list(table).then(function (rows) {
      var t = self._tx("readwrite");
      rows.forEach(function (e) { t.store.delete(e.seq); });
      return done(t.tx);
    });
  };

  function open(indexedDB, name) {
    var request = indexedDB.open(name || DB_NAME, VERSION);
    request.onupgradeneeded = function () {
      var store = request.result.createObjectStore(STORE, { keyPath: "seq", autoIncrement: true });
      store.createIndex("key", "key", { unique: true });
    };
    return promised(request).then(function (db) { return new Queue(db); });
  }

  /* The body's fields without the key, in a fixed order: "the same result" whatever the key. */
  function content(body) {
    var copy = new URLSearchParams(body);
    copy.delete("idempotency_key");
    copy.delete("csrfmiddlewaretoken");
    copy.sort();
    return copy.toString();
  }

  /* A page's request carrying this header wants the server's answer or an error, never the
   * service worker's cached copy (table.js, after a result is stored). */
  var FRESH_HEADER = "X-Table-Fresh";

  return {
    FRESH_HEADER: FRESH_HEADER, open: open, Queue: Queue, CACHE: "clubsite-table-pages-v1",
    content: content,
    SAVED: SAVED, WAITING: WAITING, CONFLICT: CONFLICT, INVALID: INVALID, REFUSED: REFUSED
  };
});

/* Sending the table device's queue (offline_queue.js): what the server's answer to an
 * action means, and the run that sends the waiting actions in order. Shared by the page and
 * the service worker, tested in node like the queue; it extends ``OfflineQueue``.
 */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./offline_queue.js"));
  } else factory(root.OfflineQueue);
})(typeof self !== "undefined" ? self : this, function (OfflineQueue) {
  "use strict";

  var SAVED = OfflineQueue.SAVED;
  var WAITING = OfflineQueue.WAITING;
  var CONFLICT = OfflineQueue.CONFLICT;
  var INVALID = OfflineQueue.INVALID;
  var REFUSED = OfflineQueue.REFUSED;

  /* The server's answer to one action: {status, data} → what happens to the action. */
  function interpret(entry, answer) {
    if (!answer || answer.status >= 500 || answer.status === 0) return { state: WAITING };
    var data = answer.data || {};
    if (answer.status === 400) {
      var errors = data.errors || {};
      var messages = [];
      Object.keys(errors).forEach(function (k) { messages = messages.concat(errors[k]); });
      return { state: INVALID, message: messages.join(" "), errors: errors };
    }
    if (answer.status === 409 && data.outcome === "round_not_open") {
      // Typed ahead of the table's round: nothing stored. Kept to send once it opens when a
      // result of an earlier round of the table still waits here (the round opens once that
      // one is stored); otherwise refused, for the players to see ("flush" decides).
      return { state: REFUSED, held: true, message: data.error || "" };
    }
    if (answer.status >= 400) return { state: REFUSED, message: data.error || "" };
    if (entry.kind === "result" && data.outcome === "conflict") {
      return { state: CONFLICT, pk: data.result };
    }
    return { state: SAVED, pk: data.result, url: data.url };
  }

  /* Send the waiting actions of ``table`` in order with ``post(url, body, csrf)`` (resolves
   * {status, data}; rejects when there is no network). Resolves the list of
   * {entry, outcome} for what got an answer. */
  OfflineQueue.Queue.prototype.flush = function (table, post) {
    var self = this;
    var answered = [];
    return this.list(table).then(function (rows) {
      var waiting = rows.filter(function (e) { return e.state === WAITING; });
      function behindEarlier(entry) { // a result of an earlier round of the table still here
        return rows.some(function (e) {
          return e.kind === "result" && Number(e.round) < Number(entry.round) &&
            !(e.key in known && known[e.key]);
        });
      }
      var known = {}; // result key → its stored row's id (null: not stored), for its confirm
      var held = {}; // result keys the server holds back (their round is not open yet)
      function next(i) {
        if (i >= waiting.length) return Promise.resolve(answered);
        var entry = waiting[i];
        var url = entry.url;
        if (entry.kind === "confirm") {
          if (held[entry.after]) return next(i + 1); // waits with its result
          var pk = entry.pk || known[entry.after];
          if (!pk) {
            // Its result went to the director (a conflict), was refused or was discarded
            // (a waiting result would have been sent first): nothing to confirm.
            return self.remove(entry.key).then(function () { return next(i + 1); });
          }
          url = url.replace("{pk}", pk);
        }
        return Promise.resolve().then(function () { return post(url, entry.body, entry.csrf); })
          .then(function (answer) { return interpret(entry, answer); },
            function () { return { state: WAITING }; })
          .then(function (outcome) {
            if (outcome.state === WAITING) return answered; // no answer: stop
            if (outcome.held && behindEarlier(entry)) outcome = { state: WAITING, held: true,
              message: outcome.message };
            else if (outcome.held) outcome = { state: REFUSED, message: outcome.message };
            answered.push({ entry: entry, outcome: outcome });
            if (outcome.held) {
              // The others are still sent (the round before may be among them); this one
              // is sent again at the next flush.
              held[entry.key] = true;
              return self.update(entry.key, { message: outcome.message })
                .then(function () { return next(i + 1); });
            }
            var write;
            if (outcome.state === SAVED) {
              write = self.remove(entry.key);
              if (entry.kind === "result" || entry.kind === "correct") {
                known[entry.key] = outcome.pk;
                // Its confirm keeps the id, in case the network drops before it is sent.
                waiting.forEach(function (c) {
                  if (c.kind === "confirm" && c.after === entry.key) {
                    c.pk = outcome.pk;
                    write = write.then(function () { return self.update(c.key, { pk: outcome.pk }); });
                  }
                });
              }
            } else {
              if (entry.kind === "result" || entry.kind === "correct") known[entry.key] = null;
              write = self.update(entry.key, { state: outcome.state, message: outcome.message || "",
                pk: outcome.pk || entry.pk || null, fields: Object.keys(outcome.errors || {}) });
            }
            return write.then(function () { return next(i + 1); });
          });
      }
      return next(0);
    });
  };

  /* Run ``fn`` (returning a promise) while no other page or the worker flushes the queue
   * (Web Locks where the browser has them; sending twice would still store once). */
  function exclusive(fn) {
    var locks = typeof navigator !== "undefined" && navigator.locks;
    return locks ? locks.request("clubsite-table-queue", fn) : Promise.resolve().then(fn);
  }

  /* A post that has had no answer after this long is given up and tried again later: a
   * request lost when the Wi-Fi dropped can hang for minutes, and while it hangs it holds
   * the queue (``exclusive``), so nothing after it is sent. Resending is safe (one key,
   * one line on the server). */
  var POST_WAIT_MS = 20000;

  function timeout() {
    return typeof AbortSignal !== "undefined" && AbortSignal.timeout
      ? AbortSignal.timeout(POST_WAIT_MS) : undefined;
  }

  OfflineQueue.interpret = interpret;
  OfflineQueue.exclusive = exclusive;
  OfflineQueue.timeout = timeout;
  return OfflineQueue;
});

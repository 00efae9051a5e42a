/* The table's round on the device: which boards it has played, and the board to go to next.
 *
 * The pages kept for a Wi-Fi drop were drawn when the round page loaded, so what they say is
 * saved is old: the device remembers each board it saw saved (in localStorage, per table) and
 * counts a board whose result waits in the queue as played, and works out "Next board" from
 * that, never a board already played. The round page, drawn by the server, is the truth and
 * resets what the device remembers for its round.
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.TableRound = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  function key(round, board) {
    return String(round) + "-" + String(board);
  }

  /* The first board of the round, in its order, that is neither ``current`` nor played (as
   * the server picks it); null when every other board is played. */
  function nextBoard(boards, current, played) {
    var list = boards.map(String);
    for (var i = 0; i < list.length; i++) {
      if (list[i] !== String(current) && !played(list[i])) return list[i];
    }
    return null;
  }

  /* What the device saw saved, for one table; ``storage`` is localStorage (or a stand-in). */
  function Saved(storage, table) {
    this.storage = storage;
    this.name = "clubsite.table.saved." + table;
  }

  Saved.prototype.all = function () {
    try {
      return JSON.parse(this.storage.getItem(this.name) || "[]");
    } catch (e) {
      return [];
    }
  };

  Saved.prototype._write = function (keys) {
    try {
      this.storage.setItem(this.name, JSON.stringify(keys));
    } catch (e) { /* full or forbidden: "Next" falls back to what the page says */ }
  };

  Saved.prototype.has = function (round, board) {
    return this.all().indexOf(key(round, board)) >= 0;
  };

  Saved.prototype.add = function (round, board) {
    var keys = this.all();
    if (keys.indexOf(key(round, board)) < 0) this._write(keys.concat([key(round, board)]));
  };

  /* The server's round page: exactly ``done`` of its ``boards`` are saved there. */
  Saved.prototype.reset = function (round, boards, done) {
    var inRound = boards.map(function (b) { return key(round, b); });
    var kept = this.all().filter(function (k) { return inRound.indexOf(k) < 0; });
    this._write(kept.concat(done.map(function (b) { return key(round, b); })));
  };

  return { nextBoard: nextBoard, Saved: Saved, key: key };
});

/* A result waiting to be sent is locked on the pad: its buttons show it and cannot be
 * tapped; "Correct the result" opens them, and saving a different result first shows the
 * waiting one struck beside the correction, which replaces it only on "Replace". Also the
 * pad's result buttons fitted to the chosen level. */
(function (T) {
  "use strict";

  var PICKS = ["level", "strain", "double", "declarer", "made", "lead_suit", "lead_rank"];

  T.setPicks = function setPicks(form, params) {
    PICKS.forEach(function (name) {
      var value = params.get(name) || "";
      form.querySelectorAll("input[name=" + name + "]").forEach(function (input) {
        input.checked = input.value === value;
      });
    });
    T.fitToLevel(form);
  };

  T.lockPad = function lockPad(form, waiting) {
    // ``waiting``: the queued result the pad shows, its buttons locked; null: free to tap.
    var locked = !!waiting;
    var was = form.classList.contains("locked");
    if (locked) T.setPicks(form, new URLSearchParams(waiting.body));
    if (T.stepper && locked) T.stepper.go("score");
    else if (T.stepper && was) { // opened for a correction, or refused: where it was wrong
      T.stepper.go(form.dataset.errorStep || "contract");
    }
    delete form.dataset.errorStep;
    form.classList.toggle("locked", locked);
    form.querySelectorAll(".picks input").forEach(function (input) { input.disabled = locked; });
    if (locked) T.showPadScore(form);
  };

  T.words = function words() {
    return { nt: T.text.nt, ns: T.text.ns, ew: T.text.ew, passed: T.text.passed, seats: T.text.seats };
  };

  T.askToReplace = function askToReplace(form, waiting, params, send) {
    // The old and the new result side by side; only "Replace" changes the queue.
    var box = document.getElementById("offline-replace");
    var s = T.screen();
    if (!box || !T.Score) return send();
    var vul = s.dataset.vulnerability || "";
    document.getElementById("replace-old").textContent =
      T.Score.describe(T.picks(new URLSearchParams(waiting.body)), vul, T.words());
    document.getElementById("replace-new").textContent = T.Score.describe(T.picks(params), vul, T.words());
    box.hidden = false;
    if (box.scrollIntoView) box.scrollIntoView({ block: "center" }); // its buttons in sight
    document.getElementById("replace-yes").onclick = function () {
      box.hidden = true;
      T.correcting = null;
      send().then(function () { T.replaced = params.get("idempotency_key"); T.render(); });
    };
    document.getElementById("replace-no").onclick = function () {
      box.hidden = true;
      T.correcting = null;
      T.render(); // the pad shows the waiting result again
    };
  };

  T.fitToLevel = function fitToLevel(form) {
    // Only results possible for the chosen level are offered; Pass needs nothing more.
    var checked = form.querySelector("input[name=level]:checked");
    var level = checked ? checked.value : "";
    form.querySelectorAll(".not-pass").forEach(function (node) {
      node.hidden = level === "PASS";
      // A passed-out board has no declarer, result or lead: what was picked before goes.
      if (level === "PASS") node.querySelectorAll("input").forEach(function (i) { i.checked = false; });
    });
    var n = parseInt(level, 10);
    form.querySelectorAll("[data-made]").forEach(function (pick) {
      var made = pick.dataset.made;
      var delta = made === "=" ? 0 : parseInt(made, 10);
      var ok = isNaN(n) || (n + 6 + delta >= 0 && n + 6 + delta <= 13);
      pick.hidden = !ok;
      if (!ok) pick.querySelector("input").checked = false;
    });
  };
})(window.TableDevice = window.TableDevice || {});

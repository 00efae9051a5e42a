/* The score pad one step at a time on a phone: contract, declarer, result, lead, score.
 *
 * A phone held at the table has room for one question: the pad shows the buttons of one
 * step, moves on by itself after the tap that completes it (the suit, the declarer, the
 * result, the lead's card), and a "Back" button and the line of what is chosen so far let
 * the players go back. Pass goes straight to the score. Wider screens, and the page without
 * JavaScript, show the whole pad. The fieldsets name their step (``data-step``, _pad.html).
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.TablePad = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var STEPS = ["contract", "declarer", "made", "lead", "score"];

  /* Pure: the step after tapping ``name`` = ``value`` on ``step``. */
  function after(step, name, value, hasLead) {
    if (name === "level") return value === "PASS" ? "score" : "contract"; // the suit next
    if (name === "strain") return "declarer"; // doubled or not is asked there
    if (name === "declarer") return "made";
    if (name === "made") return hasLead ? "lead" : "score";
    if (name === "lead_rank") return "score";
    return step;
  }

  /* Pure: the step before ``step`` ("Back"). */
  function before(step, picks, hasLead) {
    if (step === "score" && picks.level === "PASS") return "contract";
    var i = STEPS.indexOf(step);
    var previous = STEPS[Math.max(0, i - 1)];
    return previous === "lead" && !hasLead ? "made" : previous;
  }

  /* Pure: where a pad opened with ``picks`` starts (a form shown again, a correction): the
   * first step still missing something; the lead is optional. */
  function firstMissing(picks) {
    if (!picks.level) return "contract";
    if (picks.level === "PASS") return "score";
    if (!picks.strain) return "contract";
    if (!picks.declarer) return "declarer";
    if (!picks.made) return "made";
    return "score";
  }

  var NAMES = ["level", "strain", "double", "declarer", "made", "lead_suit", "lead_rank"];

  /* Pure: the step holding the field ``name`` (a field error's), "contract" for the rest. */
  function stepOf(name) {
    if (name === "declarer") return "declarer";
    if (name === "made" || name === "tricks") return "made";
    if (name.indexOf("lead") === 0) return "lead";
    return "contract";
  }

  function chosen(form) {
    var out = {};
    NAMES.forEach(function (name) {
      var input = form.querySelector("input[name=" + name + "]:checked");
      out[name] = input ? input.value : "";
      out[name + "_label"] = input && input.nextElementSibling ?
        input.nextElementSibling.textContent.trim() : "";
    });
    return out;
  }

  /* Steps on ``form`` while ``narrow`` (a MediaQueryList) matches; ``back``: the button's
   * word. Returns {refresh()} for the page to call when it changes the picks itself. */
  function Stepper(form, narrow, back) {
    var hasLead = !!form.querySelector("[data-step=lead]");
    var bar = document.createElement("div");
    bar.className = "step-bar";
    var backButton = document.createElement("button");
    backButton.type = "button";
    backButton.className = "secondary step-back";
    backButton.textContent = "‹ " + back;
    var summary = document.createElement("span");
    summary.className = "step-summary";
    summary.setAttribute("aria-live", "polite");
    bar.appendChild(backButton);
    bar.appendChild(summary);
    form.insertBefore(bar, form.querySelector("[data-step]"));

    function show(step) {
      form.dataset.step = step;
      var picks = chosen(form);
      backButton.hidden = step === "contract";
      summary.textContent = [picks.level_label, picks.strain_label, picks.double ?
        picks.double_label : "", picks.declarer_label, picks.made_label,
      picks.lead_rank ? picks.lead_suit_label + picks.lead_rank_label : ""]
        .filter(Boolean).join(" ");
      bar.hidden = step === "contract" && !summary.textContent; // nothing chosen yet
    }

    function apply() {
      form.classList.toggle("stepped", narrow.matches);
      show(form.dataset.step || firstMissing(chosen(form)));
    }

    // A click, not a change: tapping the button already chosen (a correction keeps most of
    // the result) moves on too.
    form.addEventListener("click", function (event) {
      var input = event.target;
      if (input.type !== "radio" || NAMES.indexOf(input.name) < 0 || input.disabled) return;
      show(after(form.dataset.step, input.name, input.value, hasLead));
    });
    backButton.addEventListener("click", function () {
      show(before(form.dataset.step, chosen(form), hasLead));
    });
    if (narrow.addEventListener) narrow.addEventListener("change", apply);
    apply();
    return {
      refresh: function () { show(firstMissing(chosen(form))); },
      go: show
    };
  }

  return { STEPS: STEPS, after: after, before: before, firstMissing: firstMissing,
    stepOf: stepOf, Stepper: Stepper };
});

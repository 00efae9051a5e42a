/* Small behaviours the templates ask for with data attributes, since the Content Security
   Policy runs no inline script or onclick handler:
   - data-print: the button prints the page;
   - data-check-all="NAME": the checkbox ticks or clears every checkbox named NAME;
   - data-partner-pick (data-field, data-member, data-name): the entry page's partner picker;
     the button fills the place's hidden id (data-field empty: the first place still free)
     and shows the name, instead of sending the form (which is what it does without
     JavaScript); data-partner-query: Enter searches (htmx) instead of sending the form. */
"use strict";
function pickPartner(button) {
  var form = button.form;
  if (!form) return false;
  var field = button.getAttribute("data-field");
  var places = Array.prototype.slice.call(
    form.querySelectorAll('input[type="hidden"][name^="player"]'));
  var place = field
    ? form.querySelector('input[type="hidden"][name="' + CSS.escape(field) + '"]')
    : places.filter(function (input) { return !input.value; })[0] || places[0];
  if (!place) return false;
  var member = button.getAttribute("data-member") || "";
  place.value = member;
  var slot = document.getElementById("slot-" + place.name);
  if (slot) {
    var chosen = slot.querySelector(".partner-chosen");
    var name = slot.querySelector("[data-partner-name]");
    if (name) name.textContent = member ? button.getAttribute("data-name") : "";
    if (chosen) chosen.hidden = !member;
    var matches = slot.querySelector(".partner-matches");
    if (matches) matches.textContent = "";
    var query = slot.querySelector("[data-partner-query]");
    if (query && member) query.value = "";
  }
  return true;
}
document.addEventListener("click", function (event) {
  var target = event.target;
  if (!(target instanceof Element)) return;
  if (target.closest("[data-print]")) {
    window.print();
    return;
  }
  var pick = target.closest("[data-partner-pick]");
  if (pick) {
    if (pickPartner(pick)) event.preventDefault();
    return;
  }
  var all = target.closest("[data-check-all]");
  if (all) {
    var name = all.getAttribute("data-check-all");
    document.querySelectorAll('input[type="checkbox"][name="' + CSS.escape(name) + '"]')
      .forEach(function (box) { box.checked = all.checked; });
  }
});
document.addEventListener("keydown", function (event) {
  var target = event.target;
  if (event.key === "Enter" && target instanceof Element && target.matches("[data-partner-query]")) {
    event.preventDefault();
    if (window.htmx) window.htmx.trigger(target, "search");
  }
});

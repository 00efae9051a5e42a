/* Small behaviours the templates ask for with data attributes, since the Content Security
   Policy runs no inline script or onclick handler:
   - data-print: the button prints the page;
   - data-check-all="NAME": the checkbox ticks or clears every checkbox named NAME. */
"use strict";
document.addEventListener("click", function (event) {
  var target = event.target;
  if (!(target instanceof Element)) return;
  if (target.closest("[data-print]")) {
    window.print();
    return;
  }
  var all = target.closest("[data-check-all]");
  if (all) {
    var name = all.getAttribute("data-check-all");
    document.querySelectorAll('input[type="checkbox"][name="' + CSS.escape(name) + '"]')
      .forEach(function (box) { box.checked = all.checked; });
  }
});

// Laws pages: copy a section link; glossary popovers on hover (mouse) or tap (touch).
(function () {
  "use strict";
  var page = document.querySelector(".law-page");
  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest(".copy-link");
    if (btn) {
      var url = location.origin + location.pathname + btn.dataset.href;
      var done = function () { btn.classList.add("copied"); btn.title = page ? page.dataset.copied : ""; };
      if (navigator.clipboard && window.isSecureContext) { navigator.clipboard.writeText(url).then(done, done); }
      else { history.replaceState(null, "", btn.dataset.href); done(); }
      return;
    }
  });
  var pop = document.getElementById("term-popover");
  if (!pop) return;
  var current = null;
  function show(a) {
    current = a;
    pop.textContent = "";
    var t = document.createElement("strong"); t.textContent = a.dataset.term;
    var d = document.createElement("span"); d.textContent = a.dataset.def;
    var more = document.createElement("a"); more.href = a.href; more.textContent = " →"; more.className = "term-more";
    pop.append(t, d, more);
    pop.hidden = false;
    var r = a.getBoundingClientRect();
    var left = Math.min(window.scrollX + r.left, window.scrollX + document.documentElement.clientWidth - pop.offsetWidth - 8);
    pop.style.left = Math.max(8, left) + "px";
    pop.style.top = (window.scrollY + r.bottom + 6) + "px";
  }
  function hide() { pop.hidden = true; current = null; }
  document.addEventListener("mouseover", function (ev) {
    var a = ev.target.closest && ev.target.closest("a.term");
    if (a && matchMedia("(hover: hover)").matches) show(a);
  });
  document.addEventListener("mouseout", function (ev) {
    var a = ev.target.closest && ev.target.closest("a.term");
    if (a && !pop.contains(ev.relatedTarget)) hide();
  });
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest("a.term");
    if (a) {
      // first tap shows the definition; a second tap on the same term follows the link
      if (current !== a || pop.hidden) { ev.preventDefault(); show(a); }
      return;
    }
    if (!pop.contains(ev.target)) hide();
  });
  document.addEventListener("keydown", function (ev) { if (ev.key === "Escape") hide(); });
})();

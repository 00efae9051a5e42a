/* The room screen's clock and pages, and the director's copy of its link.

   - [data-room-clock] (data-state, data-left in seconds, data-key): counts down by itself.
     The server gives the seconds left when it rendered; the deadline is set from them the
     first time a clock state (data-key) is seen and kept while the screen swaps in the same
     state again (an answer reused after a 304 carries the seconds of its first rendering).
     Paused, it shows the time left; past zero, the data-over words.
   - [data-room-pages] (data-page-seconds): shows one .room-page at a time, turning them;
     the page shown is kept across the screen's swaps.
   - [data-copy="ID"]: copies the text of the input ID (the director's screen link).
   No inline script: the Content Security Policy runs this file only. */
"use strict";
(function () {
  var deadlines = {}; // clock key -> deadline on this browser's monotonic clock (ms)
  var page = 0;
  var turned = 0;

  function now() {
    return window.performance && performance.now ? performance.now() : Date.now();
  }

  function text(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var m = Math.floor(s / 60);
    var rest = s % 60;
    return m + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function tickClock(clock) {
    var state = clock.getAttribute("data-state");
    var key = clock.getAttribute("data-key") || "";
    var left = parseFloat(clock.getAttribute("data-left") || "0");
    var time = clock.querySelector("[data-clock-time]");
    var note = clock.querySelector("[data-clock-note]");
    if (!time) return;
    if (state === "paused") {
      time.textContent = text(left);
      return;
    }
    if (state !== "running" && state !== "over") return;
    if (!(key in deadlines)) deadlines[key] = now() + left * 1000;
    var remaining = (deadlines[key] - now()) / 1000;
    time.textContent = text(remaining);
    if (remaining <= 0 && !clock.classList.contains("over")) {
      clock.classList.add("over");
      if (note && clock.getAttribute("data-over")) note.textContent = clock.getAttribute("data-over");
    }
  }

  function showPage(pages) {
    var all = pages.querySelectorAll(".room-page");
    if (!all.length) return;
    page = page % all.length;
    all.forEach(function (p, i) { p.hidden = i !== page; });
  }

  function tick() {
    document.querySelectorAll("[data-room-clock]").forEach(tickClock);
    var pages = document.querySelector("[data-room-pages]");
    if (!pages) return;
    var seconds = parseFloat(pages.getAttribute("data-page-seconds") || "12");
    if (now() - turned >= seconds * 1000) {
      turned = now();
      page += 1;
    }
    showPage(pages);
  }

  function settle() {
    var pages = document.querySelector("[data-room-pages]");
    if (pages) showPage(pages);
    document.querySelectorAll("[data-room-clock]").forEach(tickClock);
  }

  document.addEventListener("DOMContentLoaded", function () {
    turned = now();
    page = 0;
    settle();
    window.setInterval(tick, 250);
  });
  document.addEventListener("htmx:afterSwap", settle);

  document.addEventListener("click", function (event) {
    var button = event.target instanceof Element ? event.target.closest("[data-copy]") : null;
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) return;
    field.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value);
    } else if (document.execCommand) {
      document.execCommand("copy");
    }
    var done = button.getAttribute("data-copied");
    if (done) button.textContent = done;
  });
})();

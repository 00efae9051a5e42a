/* The adjusted-score form shows only the fields of the chosen kind (all of them without JS),
   and its law follows the kind (12C2a for an artificial score, 12C1c for a weighted one...)
   until the director types a law of their own; htmx then refreshes the law's hint. */
(function () {
  function sync(select) {
    var form = select.form;
    form.querySelectorAll("[data-kind]").forEach(function (group) {
      group.hidden = group.getAttribute("data-kind").split(" ").indexOf(select.value) < 0;
    });
  }
  function followLaw(select) {
    var law = select.form.querySelector("input[name=law]");
    var defaults = JSON.parse(select.getAttribute("data-kind-laws") || "{}");
    var known = Object.keys(defaults).map(function (k) { return defaults[k]; });
    if (!law || !defaults[select.value]) return;
    if (law.value.trim() !== "" && known.indexOf(law.value.trim()) < 0) return;
    if (law.value === defaults[select.value]) return;
    law.value = defaults[select.value];
    law.dispatchEvent(new Event("input", { bubbles: true }));
  }
  document.addEventListener("change", function (event) {
    if (event.target.matches("select[name=kind]")) {
      sync(event.target);
      followLaw(event.target);
    }
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("select[name=kind]").forEach(sync);
  });
})();

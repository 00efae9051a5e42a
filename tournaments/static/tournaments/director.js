/* The adjusted-score form shows only the fields of the chosen kind (all of them without JS). */
(function () {
  function sync(select) {
    var form = select.form;
    form.querySelectorAll("[data-kind]").forEach(function (group) {
      group.hidden = group.getAttribute("data-kind").split(" ").indexOf(select.value) < 0;
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.matches("select[name=kind]")) sync(event.target);
  });
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("select[name=kind]").forEach(sync);
  });
})();

"use strict";
// The report's only script: filters and search over the findings, search over the patterns, the copy buttons
// of cut names, and every drill-down opened for printing. It reads the page and sets `hidden`; it never
// writes markup (text goes in through textContent), so nothing from a report can become code here.
(function () {
  function all(root, selector) { return Array.prototype.slice.call(root.querySelectorAll(selector)); }
  function norm(text) { return (text || "").toLowerCase(); }

  function findingFilters() {
    var section = document.getElementById("findings");
    if (!section) { return; }
    var search = document.getElementById("search");
    var family = document.getElementById("family");
    var boxes = all(section, "input[name=severity]");
    var groups = all(section, ".group");
    var counter = document.getElementById("shown-count");
    var noMatch = document.getElementById("no-match");
    var texts = new Map();
    groups.forEach(function (group) {
      var head = group.querySelector(".group-head");
      all(group, ".occurrence").forEach(function (row) {
        texts.set(row, norm(row.textContent + " " + (head ? head.textContent : "")));
      });
    });
    function apply() {
      var words = norm(search ? search.value : "").split(/\s+/).filter(Boolean);
      var severities = {};
      boxes.forEach(function (box) { severities[box.value] = box.checked; });
      var wanted = family ? family.value : "";
      var shown = 0;
      groups.forEach(function (group) {
        var visible = 0;
        all(group, ".occurrence").forEach(function (row) {
          var fam = row.getAttribute("data-family") || group.getAttribute("data-family");
          var text = texts.get(row) || "";
          var ok = severities[row.getAttribute("data-severity")] !== false &&
            (!wanted || fam === wanted) &&
            words.every(function (w) { return text.indexOf(w) !== -1; });
          row.hidden = !ok;
          if (ok) { visible += 1; }
        });
        group.hidden = visible === 0;
        shown += visible;
      });
      if (counter) { counter.textContent = shown.toLocaleString(); }
      if (noMatch) { noMatch.hidden = shown !== 0 || groups.length === 0; }
    }
    if (search) { search.addEventListener("input", apply); }
    if (family) { family.addEventListener("change", apply); }
    boxes.forEach(function (box) { box.addEventListener("change", apply); });
    // The page is written with every finding shown and counted: nothing to do until a filter changes,
    // except after the browser restored a filter's state (back/forward navigation).
    if ((search && search.value) || (family && family.value) || boxes.some(function (b) { return !b.checked; })) {
      apply();
    }
  }

  function patternSearch() {
    var input = document.getElementById("pattern-search");
    if (!input) { return; }
    var rows = all(document, "#patterns tbody tr");
    var texts = rows.map(function (row) { return norm(row.textContent); });
    input.addEventListener("input", function () {
      var words = norm(input.value).split(/\s+/).filter(Boolean);
      rows.forEach(function (row, i) {
        row.hidden = !words.every(function (w) { return texts[i].indexOf(w) !== -1; });
      });
    });
  }

  function copyButtons() {
    var table = document.getElementById("long-names");
    var names = table ? JSON.parse(table.textContent) : [];
    document.addEventListener("click", function (event) {
      var button = event.target.closest ? event.target.closest("button.copy") : null;
      if (!button) { return; }
      var text = names[Number(button.getAttribute("data-ref"))];
      if (typeof text !== "string") { return; }
      var done = function () { button.textContent = button.getAttribute("data-copied"); };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(done, function () {});
      }
    });
  }

  function openForPrint() {
    window.addEventListener("beforeprint", function () {
      all(document, "details.drill").forEach(function (d) { d.open = true; });
    });
  }

  findingFilters();
  patternSearch();
  copyButtons();
  openForPrint();
  document.documentElement.setAttribute("data-ready", "1");
})();

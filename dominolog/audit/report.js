/* Step-through of the audit report (dominolog/audit/html.py): one replay per hand; the arrow keys step
   the hand last used, a click on an event row or on a link to one jumps there. */
(function () {
  "use strict";
  var replays = Array.prototype.slice.call(document.querySelectorAll(".replay"));
  var current = replays[0] || null;

  function rows(rep) {
    return Array.prototype.slice.call(rep.querySelectorAll("tr.ev"));
  }

  function go(rep, row, scroll) {
    if (!rep || !row) return;
    current = rep;
    var list = rows(rep);
    list.forEach(function (r) { r.removeAttribute("aria-current"); });
    row.setAttribute("aria-current", "true");
    var seq = row.getAttribute("data-seq");
    rep.querySelectorAll(".frame").forEach(function (f) { f.hidden = f.getAttribute("data-seq") !== seq; });
    rep.querySelector(".pos").textContent =
      "seq " + seq + " \u00b7 event " + (list.indexOf(row) + 1) + " of " + list.length;
    document.getElementById("current-hand").textContent = rep.getAttribute("data-hand");
    document.getElementById("current-seq").textContent = seq;
    if (scroll) {
      var box = rep.querySelector(".events");
      var top = row.offsetTop - box.clientHeight / 2;
      box.scrollTop = Math.max(0, top);
    }
  }

  function step(by) {
    if (!current) return;
    var list = rows(current);
    var i = list.findIndex(function (r) { return r.getAttribute("aria-current") === "true"; });
    go(current, list[Math.max(0, Math.min(list.length - 1, i + by))], true);
  }

  function jump(id) {
    var row = id ? document.getElementById(id) : null;
    if (!row || !row.matches("tr.ev")) return false;
    var rep = row.closest(".replay");
    go(rep, row, true);
    (rep.previousElementSibling || rep).scrollIntoView({ block: "start" });
    return true;
  }

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.target.closest && e.target.closest("input, textarea, select")) return;
    if (e.key === "ArrowRight") { step(1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { step(-1); e.preventDefault(); }
  });

  document.addEventListener("click", function (e) {
    var button = e.target.closest("button[data-step]");
    if (button) { current = button.closest(".replay"); step(Number(button.getAttribute("data-step"))); return; }
    var link = e.target.closest("a[href^='#h']");
    if (link) {
      var id = link.getAttribute("href").slice(1);
      if (jump(id)) { e.preventDefault(); history.replaceState(null, "", "#" + id); }
      return;
    }
    var row = e.target.closest("tr.ev");
    if (row) go(row.closest(".replay"), row, false);
  });

  window.addEventListener("hashchange", function () { jump(location.hash.slice(1)); });
  replays.forEach(function (rep) { go(rep, rep.querySelector("tr.ev[aria-current]") || rows(rep)[0], false); });
  current = replays[0] || null;
  if (current) go(current, current.querySelector("tr.ev[aria-current]"), false);
  if (location.hash) jump(location.hash.slice(1));
})();

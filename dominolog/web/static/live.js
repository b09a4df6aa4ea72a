// dominolog: keeps a page current. The page names its stream (data-stream) and its live part
// (data-part); each message of the stream fetches the part again, rendered (and escaped) by the
// server. Without JavaScript the page is the same, as of when it was loaded.
(function () {
  "use strict";
  var main = document.getElementById("live");
  var state = document.getElementById("live-state");
  if (!main || !window.EventSource) return;
  var busy = false, again = false;
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(main.dataset.part, { cache: "no-store" })
      .then(function (r) {
        // the part is gone for a whole page (an analysis made while its page waited): load it
        if (r.ok && r.headers.get("X-Dominolog-Reload")) { window.location.reload(); return Promise.reject(0); }
        return r.ok ? r.text() : Promise.reject(r.status);
      })
      .then(function (html) { main.innerHTML = html; })
      .catch(function () {})
      .then(function () { busy = false; if (again) { again = false; refresh(); } });
  }
  // after the stream was lost (the server restarted, the network went), the page fetches its part
  // again when it is back: whatever moved meanwhile shows at once (the stream also says so itself,
  // from the last id it sent, the store's mark)
  var lost = false;
  var source = new EventSource(main.dataset.stream);
  source.onopen = function () {
    if (state) state.textContent = "live";
    if (lost) { lost = false; refresh(); }
  };
  source.onerror = function () { lost = true; if (state) state.textContent = "reconnecting"; };
  source.onmessage = refresh;
  source.addEventListener("board", refresh);
})();

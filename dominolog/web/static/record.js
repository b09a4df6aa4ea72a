// dominolog: the phone recorder (docs/recorder-phone.md), an ES module (the page's
// <script type="module">) wiring the modules of static/record/: state.js (what they share), queue.js
// (the entries queued, sent, retried), reading.js (the state document, the live stream), table.js
// (drawing it), prompts.js (what the page says and asks), pad.js (the pad, the actions, the taps).
// It holds no rules: what it shows and every entry it sends come from the server's state document
// (GET /api/matches/ID/recorder).
import { $, DOC, QUEUE, S, TOKEN, onShow, queue, root, show, store, stored } from "./record/state.js";
import { enqueue, pump } from "./record/queue.js";
import { load } from "./record/reading.js";
import { tap } from "./record/pad.js";
import { draw } from "./record/table.js";
import "./record/prompts.js";  // (imported by table.js: named here, it is fetched with the others, not after)

onShow(draw);  // (state.js's show() draws with table.js: the modules that change the state do not import it)

function start() {
  // the table card's link: #token=TOKEN, kept for this match, taken out of the address bar
  var m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (m) {
    try { store(TOKEN, decodeURIComponent(m[1])); } catch (e) { /* a broken link: no token kept */ }
    history.replaceState(null, "", location.pathname + location.search);
  }

  root.addEventListener("click", tap);
  $("entry").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var line = $("entry-line"), text = line.value.trim();
    if (!text) return;
    line.value = "";
    enqueue({ label: text, body: text, line: true });
  });

  window.addEventListener("online", function () { pump(); });
  window.addEventListener("storage", function (ev) { if (ev.key === QUEUE) show(); });
  setInterval(function () { if (queue().entries.length && !S.conflict && !S.halted) pump(); }, 3000);
  // a reload while the server is out of reach: the service worker keeps this page, its scripts and style
  // (browsers allow it on localhost and HTTPS only: elsewhere the page works as before while open)
  if (navigator.serviceWorker && window.isSecureContext) {
    navigator.serviceWorker.addEventListener("message", function (ev) {
      if (ev.data && ev.data.kept === location.pathname) root.dataset.reload = "offline";
    });
    navigator.serviceWorker.register("/record-sw.js", { scope: "/m/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (reg) {
      // the page's script (fingerprinted); the service worker keeps the modules it imports (its list)
      var assets = Array.prototype.map.call(document.querySelectorAll("script[src]"), function (s) {
        return new URL(s.src).pathname;
      });
      if (reg.active) reg.active.postMessage({ keep: location.pathname, assets: assets });
    }).catch(function () { /* refused (private browsing, storage off): the page works while open */ });
  }
  S.doc = stored(DOC);
  show();
  load();
  pump();
}

if (root) start();

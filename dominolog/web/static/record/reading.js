// dominolog recorder: reading the state document (GET /api/matches/ID/recorder) and the live stream.
// The page holds no rules: what it shows comes from this document, kept in localStorage for a reload.
import { api, DOC, queue, readingQuery, S, show, store, stored, TOKEN } from "./state.js";

export function load() {
  if (S.loading) { S.reloadAgain = true; return; }
  S.loading = true;
  var url = api + "/recorder" + readingQuery("?");
  var token = stored(TOKEN), headers = {};
  if (token) headers.Authorization = "Bearer " + token;  // (a private match is read with the table's token)
  fetch(url, { cache: "no-store", headers: headers }).then(function (r) {
    if (r.status === 404 || r.status === 401) {
      S.halted = r.status === 404 ? "no such match here (a private one needs the table card's link)"
        : "the table's token is not known here, or was revoked";
      throw new Error(String(r.status));
    }
    if (!r.ok) throw new Error(String(r.status));
    return r.json();
  }).then(function (d) {
    if ((S.fresh && d.seq < S.doc.seq) || d.seq < S.acked) { S.reloadAgain = true; return; }  // an older answer
    take(d);
  }, function () {
    if (!S.doc) S.doc = stored(DOC);
    if (!queue().entries.length && !S.halted) S.offline = true;
    if (!S.halted) openStream(null);
  }).then(function () {
    S.loading = false;
    show();
    if (S.reloadAgain) { S.reloadAgain = false; load(); }
  });
}

// the live stream, opened once the page has a state from the server: from its seq on (?after=), so that
// nothing between the two is missed and nothing is read twice. Without one (the server out of reach at
// the start) it opens from the head and reads the state when it connects.
function openStream(after) {
  if (S.source || !window.EventSource) return;
  var source = S.source = new EventSource(api + "/stream" + (after === null ? "" : "?after=" + after));
  source.onmessage = function (ev) {  // the echo of this page's own write is not read again: its answer held the state
    var seq = parseInt(ev.lastEventId, 10);
    if (S.doc && seq <= Math.max(S.doc.seq, S.acked)) return;
    if (!S.sending && !queue().entries.length) load();
  };
  if (after === null) source.onopen = function () { if (!queue().entries.length) load(); };
}

export function take(d) {  // a state document from the server (a read's, or a write's answer)
  if (S.doc && S.fresh && d.seq < S.doc.seq) return;
  S.fresh = true;
  openStream(d.seq);
  if (S.doc && d.hand !== S.doc.hand) { S.revealing = false; S.skipped = []; }
  S.doc = d;
  store(DOC, d);
  if (!S.sending && !queue().entries.length) S.offline = false;
  // at a hand's end the pad takes the reveal at once: the tiles of the player asked for are tapped
  var mode = S.mode;
  if (d.prompt.reveal && (!mode || mode.kind === "reveal-wait" || (mode.kind === "reveal" && mode.player !== d.prompt.reveal))) {
    S.mode = { kind: "reveal", player: d.prompt.reveal, tiles: [] };
  } else if (mode && (mode.kind === "reveal-wait" || mode.kind === "reveal") && !d.prompt.reveal) S.mode = null;
}

// dominolog recorder: the queue of entries (docs/recorder-phone.md). Every entry is queued in
// localStorage first (its own Idempotency-Key, the seq it should get), shown as pending, sent in order,
// once each; recorded only when the server answered 201. Retries keep the key; a conflict is resolved
// by the person recording (keep theirs after the server's, or drop them).
import { $, api, DN, JSONL, mover, queue, readingQuery, S, saveQueue, show, stored, TOKEN } from "./state.js";
import { load, take } from "./reading.js";

function newKey() {
  var a = new Uint8Array(16);
  crypto.getRandomValues(a);
  return Array.prototype.map.call(a, function (b) { return (b + 256).toString(16).slice(1); }).join("");
}
function lineCount(e) { return e.type === JSONL ? e.body.split("\n").filter(Boolean).length : 1; }
function predict(q) {
  var next = (q.base || 0) + 1;
  q.entries.forEach(function (e) { e.seq = next; next += lineCount(e); });
}

export function enqueue(entry) {
  if (!entry || S.conflict) return;
  var q = queue();
  if (!q.entries.length) q.base = Math.max(S.doc ? S.doc.seq : 0, S.acked);
  q.entries.push({ key: newKey(), label: entry.label, body: entry.body, type: entry.type || DN,
                   tile: entry.tile || null, tiles: entry.tiles || null, line: !!entry.line,
                   moves: !!entry.moves, player: mover(q) });
  predict(q);
  saveQueue(q);
  S.mode = null;
  show();
  pump();
}

function send(e, seq) {
  var headers = { "Content-Type": e.type, "Idempotency-Key": e.key };
  var token = stored(TOKEN);
  if (token) headers.Authorization = "Bearer " + token;
  return fetch(api + "/events?seq=" + seq + "&state=recorder" + readingQuery("&"),
               { method: "POST", headers: headers, body: e.body, cache: "no-store" });
}

function later(ms) {
  if (S.retryTimer) return;
  S.retryTimer = setTimeout(function () { S.retryTimer = null; pump(); }, ms);
}

export function pump() {
  if (S.sending || S.conflict || S.halted) return;
  var q = queue();
  if (!q.entries.length) { show(); return; }
  var e = q.entries[0];
  S.sending = true;
  send(e, q.base + 1).then(function (r) {
    return r.json().catch(function () { return {}; }).then(function (body) { answered(e, r.status, body); });
  }, function () {
    S.sending = false;
    S.offline = true;
    show();
    later(1500);
  });
}

function answered(e, status, body) {
  S.sending = false;
  S.offline = false;
  var q = queue();
  if (!q.entries.length || q.entries[0].key !== e.key) { show(); return; }
  if (status === 201) {
    var seqs = body.seqs || [];
    q.base = seqs.length ? seqs[seqs.length - 1] : q.base;
    S.acked = Math.max(S.acked, q.base);
    q.entries.shift();
    predict(q);
    saveQueue(q);
    S.refused = [];  // fixed: what was refused is no longer the news
    if (body.recorder) take(body.recorder);  // one round trip a tap: the answer carries the state
    else if (!q.entries.length) load();
    show();
    if (q.entries.length) pump();
  } else if (status === 409 && body.head !== undefined) {
    S.conflict = { error: body.error || "another writer took the seq", base: q.base };
    load();
  } else if (status === 422) {
    q.entries.shift();
    predict(q);
    saveQueue(q);
    S.refused = [{ label: e.label, error: body.error || "refused", line: !!e.line }];
    if (e.line) $("entry-line").value = e.body;
    if (!q.entries.length) load(); else { show(); pump(); }
  } else if (status === 401 || status === 403 || status === 413 || status === 415 || status === 400) {
    S.halted = (body.error || "refused") + " (status " + status + ")";
    show();
  } else {  // 429, 409 of a key still running, 5xx: the same entry again, same key
    show();
    later(status === 429 ? 1000 : 2000);
  }
}

export function resolve(how) {
  var q = queue();
  if (how === "keep") {  // a new request each (the server keeps the 409 as the answer to the old keys)
    q.base = S.doc ? S.doc.seq : q.base;
    q.entries.forEach(function (e) { e.key = newKey(); });
    predict(q);
    saveQueue(q);
  } else {  // dropped from the queue, kept in the line to re-enter (what was tapped, as notation)
    var line = $("entry-line"), typed = q.entries.filter(function (e) { return e.type === DN; })
      .map(function (e) { return e.body; });
    if (typed.length) line.value = (line.value.trim() ? line.value.trim() + " " : "") + typed.join(" ");
    q.entries = [];
    saveQueue(q);
  }
  S.conflict = null;
  load();
  pump();
}

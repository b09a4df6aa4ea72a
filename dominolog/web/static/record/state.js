// dominolog recorder: what its modules share (docs/recorder-phone.md). The page's element, its match
// and API address, the keys it keeps in localStorage, and the page's mutable state as one object (S):
// a module imports S and reads or sets S.doc, S.mode... (an imported binding cannot be assigned).
export var root = document.getElementById("recorder");
export var api = root ? root.dataset.api : "", match = root ? root.dataset.match : "";
export var TOKEN = "dominolog.token." + match, QUEUE = "dominolog.queue." + match, DOC = "dominolog.doc." + match;
export var JSONL = "application/x-ndjson", DN = "text/x-dominolog-notation";
export function $(id) { return document.getElementById(id); }
export function el(tag, text, attrs) {
  var n = document.createElement(tag);
  if (text !== undefined && text !== null) n.textContent = text;
  Object.keys(attrs || {}).forEach(function (k) { n.setAttribute(k, attrs[k]); });
  return n;
}
export function fill(node, children) {
  while (node.firstChild) node.removeChild(node.firstChild);
  children.forEach(function (c) { node.appendChild(c); });
}

// Drawing the page again: table.js's draw(), which the entry names here (onShow), so that the modules
// that change the state (pad, queue, reading, prompts) ask for it without importing the table, which
// imports them: the modules import in one direction only, no circle.
var redraw = function () {};
export function onShow(f) { redraw = f; }
export function show() { redraw(); }

export var S = {
  doc: null, mode: null, sending: false, offline: false, conflict: null, halted: null,
  revealing: false, skipped: [], refused: [], retryTimer: null, loading: false, reloadAgain: false,
  acked: 0,  // the last seq the server acknowledged to this page: seqs only grow (append-only)
  fresh: false,  // the doc shown came from the server since the page opened
  source: null,  // the live stream (reading.js)
};

export function store(key, value) {
  try { if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value)); }
  catch (e) { /* storage full or refused: the page still works while open */ }
}
export function stored(key) {
  try { var v = localStorage.getItem(key); return v === null ? null : JSON.parse(v); } catch (e) { return null; }
}

export function queue() {
  var q = stored(QUEUE);
  return q && Array.isArray(q.entries) ? q : { base: null, entries: [] };
}
export function saveQueue(q) { store(QUEUE, q.entries.length ? q : null); }

// whose turn an entry made now moves on from: the server's order of play from the player on move,
// moved on by each entry waiting that is a play or a pass (the page holds no rules: the order is the server's)
export function mover(q) {
  var doc = S.doc;
  if (!doc || !doc.order || !doc.order.length) return null;
  var moved = 0;
  q.entries.forEach(function (e) { if (e.moves && e.seq > doc.seq) moved += 1; });
  return doc.order[moved % doc.order.length];
}

// built on entries not yet stored or shown
export function behind() { return queue().entries.length > 0 || (!!S.doc && S.doc.seq < S.acked); }

export function readingQuery(sep) {  // the hand's end as the table said it: asked for the reveals, those passed over
  var parts = S.revealing ? ["revealing=true"] : [];
  S.skipped.forEach(function (p) { parts.push("skip=" + encodeURIComponent(p)); });
  return parts.length ? sep + parts.join("&") : "";
}

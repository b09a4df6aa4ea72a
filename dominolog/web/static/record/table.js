// dominolog recorder: drawing the page from the state document (docs/recorder-phone.md): the table's
// picture (the server's SVG) with the plays waiting greyed on it, the status, the hands, the events,
// the queue; draw() draws it all again, then the prompts, the pad and the actions (the other modules
// call state.js's show(), which the entry points here: nothing imports this module back).
import { $, S, el, fill, mover, queue, root } from "./state.js";
import { showActions, showPad } from "./pad.js";
import { showBanner, showConflict, showPlaces, showPrompt } from "./prompts.js";

function tiles(list) {  // a tile is not cut at the line's end: a non-breaking hyphen
  return list.map(function (t) { return t.replace("-", "\u2011"); }).join(" ");
}
function pairs(obj) {
  return Object.keys(obj || {}).map(function (p) { return p + " " + obj[p]; }).join(", ");
}

export function waitingOn(q) {  // the plays and passes waiting that the state shown does not hold yet
  return q.entries.filter(function (e) { return e.moves && e.seq > S.doc.seq; });
}

export function draw() {
  if (!root) return;
  var q = queue();
  showBanner(q);
  showQueue(q);
  showConflict(q);
  var doc = S.doc, mode = S.mode;
  if (!doc) return;
  var ahead = waitingOn(q);
  showPrompt(q, ahead);
  if (doc.picture) $("picture").innerHTML = doc.picture;  // the server's SVG, every name escaped there
  else fill($("picture"), doc.picture_note ? [el("p", doc.picture_note)] : []);
  if (ahead.length) {  // the plays waiting, drawn on the table greyed (the server places them when sent)
    var row = el("p", null, { "class": "pending-plays" });
    row.appendChild(el("span", "pending:"));
    ahead.forEach(function (e) {
      row.appendChild(el("span", (e.player ? e.player + " " : "") + e.label.replace(/^play /, ""),
                         { "class": "pending-tile", "data-pending-tile": e.tile || (e.tiles || []).join("&") || "-" }));
    });
    $("picture").appendChild(row);
  }
  if (mode && mode.kind === "choose") {  // the places light up on the table, a tap on one picks it
    mode.places.forEach(function (p) {
      var end = p.end && $("picture").querySelector('[data-end="' + CSS.escape(p.end) + '"]');
      if (end) { end.classList.add("lit"); end.setAttribute("data-place", p.id); bigEnd(end); }
    });
  }
  var status = [], next = mover(q);
  if (doc.turn) status.push((next || doc.turn) + " to play");
  if (doc.points) status.push("hand " + doc.hand + ": " + pairs(doc.points));
  status.push("totals: " + pairs(doc.totals));
  $("status").textContent = status.join(" · ");
  fill($("hands"), doc.hands.map(function (h) {
    var text = h.player + ": " + tiles(h.known) + (h.hidden ? " +" + h.hidden + " hidden" : "");
    return el("p", text, { "data-player": h.player });
  }).concat(doc.boneyard ? [el("p", "boneyard: " + (tiles(doc.boneyard.known) + " +" +
    doc.boneyard.hidden + " hidden").trim())] : []));
  showPad(q);
  showActions(q);
  showPlaces();
  showEvents();
}

function bigEnd(end) {  // a lit end is a finger's target: its circle 44 CSS px across, whatever the scale
  var svg = end.ownerSVGElement, circle = end.querySelector("circle"), m = svg && svg.getScreenCTM();
  if (!circle || !m || !m.a) return;
  circle.setAttribute("r", String(22 / m.a));
}

function showEvents() {
  var mode = S.mode;
  fill($("events"), S.doc.events.slice().reverse().map(function (e) {
    var words = "#" + e.seq + " " + e.words;
    var li = el("li", e.undo ? "" : words, { "data-seq": String(e.seq), value: String(e.seq) });
    if (!e.undo) return li;
    // an event a correction reaches is a button inside its list item (a list holds only items)
    var b = el("button", words, { type: "button", "class": "event", "data-undo": String(e.seq) });
    li.className = "undoable";
    li.appendChild(b);
    if (mode && mode.kind === "undo" && mode.seq === e.seq) {
      li.className = "undoable asking";
      b.appendChild(el("strong", " · tap again: " + e.undo.label));
    }
    return li;
  }));
}

function showQueue(q) {
  var items = S.refused.map(function (r) {
    return el("li", r.label + ": refused: " + r.error, { "class": "refused" });
  });
  q.entries.forEach(function (e) {
    items.push(el("li", (e.player && e.moves ? e.player + ": " : "") + e.label + " · pending, #" + e.seq,
                  { "class": "pending", "data-pending-seq": String(e.seq) }));
  });
  fill($("queue"), items);
}

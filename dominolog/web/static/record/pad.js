// dominolog recorder: the tile pad and the action buttons (docs/recorder-phone.md): which are on, and
// what a tap does: S.mode is what a tap is in the middle of (a place to choose, a drawn tile, the tile
// turned up at a deal, a pair's two tiles, a tap that ends the hand asked once, the tiles revealed, an
// undo asked once); an entry made goes to the queue (queue.js).
import { $, behind, el, fill, JSONL, queue, S, show } from "./state.js";
import { enqueue, resolve } from "./queue.js";
import { load } from "./reading.js";

function queuedTiles(q) {
  var out = {};
  q.entries.forEach(function (e) {
    if (e.tile) out[e.tile] = true;
    (e.tiles || []).forEach(function (t) { out[t] = true; });
  });
  return out;
}

export function showPad(q) {
  var doc = S.doc, mode = S.mode, stale = behind(), queued = queuedTiles(q);
  var byTile = {};
  doc.pad.forEach(function (t) { byTile[t.tile] = t; });
  Array.prototype.forEach.call(document.querySelectorAll("#pad [data-tile]"), function (b) {
    var t = byTile[b.dataset.tile];
    var active;
    if (S.conflict || S.halted) active = false;
    else if (mode && mode.kind === "reveal") active = t.state !== "table";
    else if (mode && mode.kind === "draw") active = !!t.draw;
    else if (mode && mode.kind === "start") active = true;
    else if (mode && mode.kind === "pair") active = !queued[t.tile] && t.state !== "table" && t.state !== "elsewhere";
    else if (stale) active = !queued[t.tile] && t.state !== "table" && !!doc.turn;
    else active = t.active;
    b.disabled = !active;
    b.dataset.state = queued[t.tile] ? "pending" : t.state;
    var picked = (mode && mode.kind === "choose" && mode.tile === t.tile) ||
      (mode && (mode.kind === "reveal" || mode.kind === "pair") && mode.tiles.indexOf(t.tile) >= 0);
    b.classList.toggle("picked", !!picked);
    b.setAttribute("aria-pressed", picked ? "true" : "false");
  });
}

export function showActions(q) {
  var doc = S.doc, mode = S.mode, acts = doc.actions, idle = !S.conflict && !S.halted;
  var on = {
    pass: !!acts.pass, draw: !!acts.draw, block: !!acts.block, undo: !!acts.undo, note: true, pair: !!acts.pair,
    reveal: !!doc.hand && !!doc.hands.some(function (h) { return h.hidden; }) || !!doc.prompt.reveal,
  };
  var shown = acts.shown || ["pass", "draw", "pair", "block", "reveal", "note", "undo"];
  Array.prototype.forEach.call(document.querySelectorAll("#actions [data-action]"), function (b) {
    if (b.dataset.suit) return;
    b.hidden = shown.indexOf(b.dataset.action) < 0;  // what means nothing in the variant is not shown
    b.disabled = !(idle && on[b.dataset.action]);
    var asking = mode && mode.kind === "confirm" && mode.action === b.dataset.action;
    b.textContent = asking ? "tap again: " + b.dataset.action + " ends the hand" : b.dataset.action;
    b.classList.toggle("asking", !!asking);
  });
  fill($("declares"), (acts.declare || []).map(function (d, i) {
    var b = el("button", d.label, { type: "button", "class": "action", "data-action": "declare", "data-suit": i ? "even" : "odd" });
    b.disabled = !idle;
    return b;
  }));
  Array.prototype.forEach.call(document.querySelectorAll("#agreement [data-action], #offer [data-action]"), function (b) {
    b.disabled = !idle || q.entries.length > 0;
    if (b.dataset.action === "offer" && doc.prompt.offer && doc.prompt.offer.action === "reveal") {
      var asking = mode && mode.kind === "confirm" && mode.action === "offer";
      b.textContent = asking ? "tap again: the hand is over, reveal the tiles" : doc.prompt.offer.label;
      b.classList.toggle("asking", !!asking);
    }
  });
  var pair = document.querySelector('#actions [data-action="pair"]');
  if (pair) pair.setAttribute("aria-pressed", mode && mode.kind === "pair" ? "true" : "false");
}

// -- taps -----------------------------------------------------------------------------------------
function entryFor(name) {
  var acts = S.doc.actions;
  return name === "pass" ? acts.pass : name === "block" ? acts.block : name === "undo" ? acts.undo : null;
}

function tapTile(name) {
  var doc = S.doc, mode = S.mode;
  var t = doc.pad.filter(function (x) { return x.tile === name; })[0];
  if (!t) return;
  if (mode && mode.kind === "reveal") {
    var i = mode.tiles.indexOf(name);
    if (i >= 0) mode.tiles.splice(i, 1); else mode.tiles.push(name);
    show();
    return;
  }
  if (mode && mode.kind === "draw") { enqueue({ label: "draw " + name, body: t.draw, tile: name }); return; }
  if (mode && mode.kind === "start") {
    enqueue({ label: "deal, " + mode.leader + " leads, " + name + " turned up", type: JSONL,
              body: JSON.stringify({ type: "deal", leader: mode.leader, hands: null, start_tile: name }) + "\n" });
    return;
  }
  if (mode && mode.kind === "pair") {  // two taps, the tiles in the order tapped (a second tap takes one back)
    var at = mode.tiles.indexOf(name);
    if (at >= 0) mode.tiles.splice(at, 1); else mode.tiles.push(name);
    if (mode.tiles.length < 2) { show(); return; }
    var two = mode.tiles;
    enqueue({ label: "pair " + two.join(" & "), body: two.map(function (x) { return x.replace("-", ""); }).join("&"),
              tiles: two, moves: true });
    return;
  }
  if (mode && mode.kind === "choose" && mode.tile === name) { S.mode = null; show(); return; }
  if (behind()) {  // built on entries not yet stored or shown: the place is asked now, among the table's ends
    var typed = name.replace("-", ""), ends = doc.places || [];
    if (ends.length < 2) { enqueue({ label: "play " + name, body: typed, tile: name, moves: true }); return; }
    S.mode = { kind: "choose", tile: name, places: ends.map(function (p) {
      return { id: p.id, entry: typed + p.suffix, end: p.end };
    }) };
    show();
    return;
  }
  if (t.places.length === 1) enqueue({ label: "play " + name, body: t.places[0].entry, tile: name, moves: true });
  else if (t.places.length > 1) { S.mode = { kind: "choose", tile: name, places: t.places }; show(); }
}

function tapAction(b) {
  var doc = S.doc, name = b.dataset.action;
  if (name === "declare") {
    var d = (doc.actions.declare || [])[b.dataset.suit === "even" ? 1 : 0];
    enqueue(d);
  } else if (name === "draw") {
    if (S.mode && S.mode.kind === "draw") { enqueue({ label: "draw unseen", body: doc.actions.draw.body }); return; }
    S.mode = doc.pad.some(function (t) { return t.draw; }) && !queue().entries.length ? { kind: "draw" } : null;
    if (!S.mode) enqueue({ label: "draw unseen", body: doc.actions.draw.body });
    else show();
  } else if (name === "reveal") {  // the table says the hand is over: it ends the hand, asked once
    if (doc.prompt.reveal || confirmed("reveal")) startReveal();
  } else if (name === "deal") {
    var deal = doc.prompt.deal, leader = b.dataset.leader;
    if (!deal || deal.leaders.indexOf(leader) < 0) return;
    if (deal.start) { S.mode = { kind: "start", leader: leader }; show(); return; }
    enqueue({ label: "deal, " + leader + " leads", type: JSONL,
              body: JSON.stringify({ type: "deal", leader: leader, hands: null }) + "\n" });
  } else if (name === "pair") {
    S.mode = S.mode && S.mode.kind === "pair" ? null : { kind: "pair", tiles: [] };
    show();
  } else if (name === "note") {
    var line = $("entry-line"), text = line.value.trim();
    if (!text) { $("banner").textContent = "type the note in the line, then tap note"; line.focus(); return; }
    line.value = "";
    enqueue({ label: "note " + text, body: JSON.stringify({ type: "note", text: text }) + "\n", type: JSONL });
  } else if (name === "offer") {
    var o = doc.prompt.offer;
    if (o && o.action === "reveal") { if (confirmed("offer")) startReveal(); }
    else enqueue(o);
  } else if (name === "agree" || name === "disagree") {
    if (doc.agreement) enqueue(doc.agreement[name]);
  } else {
    var e = entryFor(name);
    if (name === "block" && !confirmed("block")) return;  // a tap that ends the hand asks once
    if (e) enqueue({ label: e.label, body: e.body, type: e.type, moves: name === "pass" });
  }
}

function confirmed(action) {  // a tap that ends a hand asks once: true on the second tap in a row
  if (S.mode && S.mode.kind === "confirm" && S.mode.action === action) { S.mode = null; return true; }
  S.mode = { kind: "confirm", action: action };
  show();
  return false;
}

function startReveal() {
  if (S.doc.prompt.reveal) { S.mode = { kind: "reveal", player: S.doc.prompt.reveal, tiles: [] }; show(); return; }
  S.revealing = true;
  S.mode = { kind: "reveal-wait" };
  load();
}

function tapReveal(how) {
  var mode = S.mode;
  if (!mode || mode.kind !== "reveal") return;
  if (how === "skip") S.skipped.push(mode.player);
  else enqueue({ label: "reveal " + mode.player + " " + mode.tiles.join(" "), type: JSONL,
                 body: JSON.stringify({ type: "reveal", player: mode.player, tiles: mode.tiles }) + "\n" });
  S.mode = null;
  load();
}

// a tap anywhere in the page: the button (or the lit end of the table) it fell on
export function tap(ev) {
  var b = ev.target.closest("button, #picture [data-place]"), doc = S.doc, mode = S.mode;
  if (!b || !doc || b.disabled) return;
  if (b.dataset.tile) tapTile(b.dataset.tile);
  else if (b.dataset.place) {
    var p = mode && mode.places.filter(function (x) { return x.id === b.dataset.place; })[0];
    if (p) enqueue({ label: "play " + mode.tile + " " + p.id, body: p.entry, tile: mode.tile, moves: true });
  } else if (b.dataset.draw) enqueue({ label: "draw unseen", body: doc.actions.draw.body });
  else if (b.dataset.reveal) tapReveal(b.dataset.reveal);
  else if (b.dataset.resolve) resolve(b.dataset.resolve);
  else if (b.dataset.action) tapAction(b);
  else if (b.dataset.undo) {  // a first tap asks, a second undoes back to it (a stray tap writes nothing)
    var e = doc.events.filter(function (x) { return String(x.seq) === b.dataset.undo; })[0];
    if (!e || !e.undo || queue().entries.length) return;
    if (mode && mode.kind === "undo" && mode.seq === e.seq) enqueue(e.undo);
    else { S.mode = { kind: "undo", seq: e.seq }; show(); }
  }
}

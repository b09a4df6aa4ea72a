// dominolog: the phone recorder (docs/recorder-phone.md). It holds no rules: what it shows and
// every entry it sends come from the server's state document (GET /api/matches/ID/recorder).
// Every entry is queued in localStorage first (its own Idempotency-Key, the seq it should get),
// shown as pending, sent in order, once each; recorded only when the server answered 201.
(function () {
  "use strict";
  var root = document.getElementById("recorder");
  if (!root) return;
  var api = root.dataset.api, match = root.dataset.match;
  var TOKEN = "dominolog.token." + match, QUEUE = "dominolog.queue." + match, DOC = "dominolog.doc." + match;
  var JSONL = "application/x-ndjson", DN = "text/x-dominolog-notation";
  var $ = function (id) { return document.getElementById(id); };
  var doc = null, mode = null, sending = false, offline = false, conflict = null, halted = null;
  var revealing = false, skipped = [], refused = [], retryTimer = null, loading = false, reloadAgain = false;
  var acked = 0, fresh = false;  // fresh: the doc shown came from the server since the page opened  // the last seq the server acknowledged to this page: seqs only grow (append-only)

  function store(key, value) {
    try { if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value)); }
    catch (e) { /* storage full or refused: the page still works while open */ }
  }
  function stored(key) {
    try { var v = localStorage.getItem(key); return v === null ? null : JSON.parse(v); } catch (e) { return null; }
  }

  // the table card's link: #token=TOKEN, kept for this match, taken out of the address bar
  (function () {
    var m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
    if (m) {
      try { store(TOKEN, decodeURIComponent(m[1])); } catch (e) { /* a broken link: no token kept */ }
      history.replaceState(null, "", location.pathname + location.search);
    }
  })();

  function queue() {
    var q = stored(QUEUE);
    return q && Array.isArray(q.entries) ? q : { base: null, entries: [] };
  }
  function saveQueue(q) { store(QUEUE, q.entries.length ? q : null); }

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

  // -- entering -----------------------------------------------------------------------------------
  function enqueue(entry) {
    if (!entry || conflict) return;
    var q = queue();
    if (!q.entries.length) q.base = Math.max(doc ? doc.seq : 0, acked);
    q.entries.push({ key: newKey(), label: entry.label, body: entry.body, type: entry.type || DN,
                     tile: entry.tile || null, tiles: entry.tiles || null, line: !!entry.line,
                     moves: !!entry.moves, player: mover(q) });
    predict(q);
    saveQueue(q);
    mode = null;
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
    if (retryTimer) return;
    retryTimer = setTimeout(function () { retryTimer = null; pump(); }, ms);
  }

  function pump() {
    if (sending || conflict || halted) return;
    var q = queue();
    if (!q.entries.length) { show(); return; }
    var e = q.entries[0];
    sending = true;
    send(e, q.base + 1).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (body) { answered(e, r.status, body); });
    }, function () {
      sending = false;
      offline = true;
      show();
      later(1500);
    });
  }

  function answered(e, status, body) {
    sending = false;
    offline = false;
    var q = queue();
    if (!q.entries.length || q.entries[0].key !== e.key) { show(); return; }
    if (status === 201) {
      var seqs = body.seqs || [];
      q.base = seqs.length ? seqs[seqs.length - 1] : q.base;
      acked = Math.max(acked, q.base);
      q.entries.shift();
      predict(q);
      saveQueue(q);
      refused = [];  // fixed: what was refused is no longer the news
      if (body.recorder) take(body.recorder);  // one round trip a tap: the answer carries the state
      else if (!q.entries.length) load();
      show();
      if (q.entries.length) pump();
    } else if (status === 409 && body.head !== undefined) {
      conflict = { error: body.error || "another writer took the seq", base: q.base };
      load();
    } else if (status === 422) {
      q.entries.shift();
      predict(q);
      saveQueue(q);
      refused = [{ label: e.label, error: body.error || "refused", line: !!e.line }];
      if (e.line) $("entry-line").value = e.body;
      if (!q.entries.length) load(); else { show(); pump(); }
    } else if (status === 401 || status === 403 || status === 413 || status === 415 || status === 400) {
      halted = (body.error || "refused") + " (status " + status + ")";
      show();
    } else {  // 429, 409 of a key still running, 5xx: the same entry again, same key
      show();
      later(status === 429 ? 1000 : 2000);
    }
  }

  function resolve(how) {
    var q = queue();
    if (how === "keep") {  // a new request each (the server keeps the 409 as the answer to the old keys)
      q.base = doc ? doc.seq : q.base;
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
    conflict = null;
    load();
    pump();
  }

  // -- reading ------------------------------------------------------------------------------------
  function load() {
    if (loading) { reloadAgain = true; return; }
    loading = true;
    var url = api + "/recorder" + readingQuery("?");
    var token = stored(TOKEN), headers = {};
    if (token) headers.Authorization = "Bearer " + token;  // (a private match is read with the table's token)
    fetch(url, { cache: "no-store", headers: headers }).then(function (r) {
      if (r.status === 404 || r.status === 401) {
        halted = r.status === 404 ? "no such match here (a private one needs the table card's link)"
          : "the table's token is not known here, or was revoked";
        throw new Error(String(r.status));
      }
      if (!r.ok) throw new Error(String(r.status));
      return r.json();
    }).then(function (d) {
      if ((fresh && d.seq < doc.seq) || d.seq < acked) { reloadAgain = true; return; }  // an older answer
      take(d);
    }, function () {
      if (!doc) doc = stored(DOC);
      if (!queue().entries.length && !halted) offline = true;
      if (!halted) openStream(null);
    }).then(function () {
      loading = false;
      show();
      if (reloadAgain) { reloadAgain = false; load(); }
    });
  }

  function readingQuery(sep) {  // the hand's end as the table said it: asked for the reveals, those passed over
    var parts = revealing ? ["revealing=true"] : [];
    skipped.forEach(function (p) { parts.push("skip=" + encodeURIComponent(p)); });
    return parts.length ? sep + parts.join("&") : "";
  }

  // the live stream, opened once the page has a state from the server: from its seq on (?after=), so that
  // nothing between the two is missed and nothing is read twice. Without one (the server out of reach at
  // the start) it opens from the head and reads the state when it connects.
  var source = null;
  function openStream(after) {
    if (source || !window.EventSource) return;
    source = new EventSource(api + "/stream" + (after === null ? "" : "?after=" + after));
    source.onmessage = function (ev) {  // the echo of this page's own write is not read again: its answer held the state
      var seq = parseInt(ev.lastEventId, 10);
      if (doc && seq <= Math.max(doc.seq, acked)) return;
      if (!sending && !queue().entries.length) load();
    };
    if (after === null) source.onopen = function () { if (!queue().entries.length) load(); };
  }

  function take(d) {  // a state document from the server (a read's, or a write's answer)
    if (doc && fresh && d.seq < doc.seq) return;
    fresh = true;
    openStream(d.seq);
    if (doc && d.hand !== doc.hand) { revealing = false; skipped = []; }
    doc = d;
    store(DOC, d);
    if (!sending && !queue().entries.length) offline = false;
    // at a hand's end the pad takes the reveal at once: the tiles of the player asked for are tapped
    if (d.prompt.reveal && (!mode || mode.kind === "reveal-wait" || (mode.kind === "reveal" && mode.player !== d.prompt.reveal))) {
      mode = { kind: "reveal", player: d.prompt.reveal, tiles: [] };
    } else if (mode && (mode.kind === "reveal-wait" || mode.kind === "reveal") && !d.prompt.reveal) mode = null;
  }

  // whose turn an entry made now moves on from: the server's order of play from the player on move,
  // moved on by each entry waiting that is a play or a pass (the page holds no rules: the order is the server's)
  function mover(q) {
    if (!doc || !doc.order || !doc.order.length) return null;
    var moved = 0;
    q.entries.forEach(function (e) { if (e.moves && e.seq > doc.seq) moved += 1; });
    return doc.order[moved % doc.order.length];
  }

  // -- showing ------------------------------------------------------------------------------------
  function el(tag, text, attrs) {
    var n = document.createElement(tag);
    if (text !== undefined && text !== null) n.textContent = text;
    Object.keys(attrs || {}).forEach(function (k) { n.setAttribute(k, attrs[k]); });
    return n;
  }
  function fill(node, children) {
    while (node.firstChild) node.removeChild(node.firstChild);
    children.forEach(function (c) { node.appendChild(c); });
  }
  function tiles(list) {  // a tile is not cut at the line's end: a non-breaking hyphen
    return list.map(function (t) { return t.replace("-", "\u2011"); }).join(" ");
  }
  function pairs(obj) {
    return Object.keys(obj || {}).map(function (p) { return p + " " + obj[p]; }).join(", ");
  }

  function show() {
    var q = queue();
    var waiting = q.entries.length;
    var state = conflict ? "conflict" : offline ? "offline" : waiting ? "pending" : "idle";
    root.dataset.state = state;
    root.dataset.pending = String(waiting);
    var banner = $("banner");
    var no = refused[0];
    banner.textContent = halted ? "not sent: " + halted + ": open the table card's link again"
      : conflict ? "conflict: " + conflict.error
      : offline ? "offline, " + waiting + " waiting: keep tapping, they are sent when the server answers"
      : no ? "refused: " + no.label + ": " + no.error + (no.line ? " · fix it in the line and tap enter"
                                                                 : " · tap what really happened")
      : waiting ? waiting + " waiting" : "";
    banner.className = "banner " + state + (halted ? " halted" : "") + (no && !halted && !conflict && !offline ? " refused" : "");
    showQueue(q);
    showConflict(q);
    if (!doc) return;
    var p = doc.prompt, ahead = waitingOn(q);
    // plays waiting: the prompt's legal tiles are of a state gone by; the turn as they moved it on
    $("prompt").textContent = ahead.length && doc.turn ? "hand " + doc.hand + ": " + mover(q) + " to play · " +
      ahead.length + " waiting to be sent (greyed on the table)" : p.text;
    var offer = [];
    if (p.offer) offer.push(el("button", p.offer.label, { type: "button", "class": "action", "data-action": "offer" }));
    (p.deal ? p.deal.leaders : []).forEach(function (name) {  // a deal by taps: who leads (and the tile turned up)
      offer.push(el("button", "deal, " + name + " leads", { type: "button", "class": "action", "data-action": "deal",
                                                            "data-leader": name }));
    });
    fill($("offer"), offer);
    var a = doc.agreement;
    $("agreement").hidden = !a;
    if (a) $("agreement-text").textContent = "Hand " + a.hand + ": " + a.result + ". " + a.player + ", do you agree?";
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

  function queuedTiles(q) {
    var out = {};
    q.entries.forEach(function (e) {
      if (e.tile) out[e.tile] = true;
      (e.tiles || []).forEach(function (t) { out[t] = true; });
    });
    return out;
  }

  function waitingOn(q) {  // the plays and passes waiting that the state shown does not hold yet
    return q.entries.filter(function (e) { return e.moves && e.seq > doc.seq; });
  }

  function behind() { return queue().entries.length > 0 || (!!doc && doc.seq < acked); }

  function showPad(q) {
    var stale = behind(), queued = queuedTiles(q);
    var byTile = {};
    doc.pad.forEach(function (t) { byTile[t.tile] = t; });
    Array.prototype.forEach.call(document.querySelectorAll("#pad [data-tile]"), function (b) {
      var t = byTile[b.dataset.tile];
      var active;
      if (conflict || halted) active = false;
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

  function showActions(q) {
    var acts = doc.actions, idle = !conflict && !halted;
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

  function showPlaces() {
    var items = [];
    if (mode && mode.kind === "choose") {
      items.push(el("span", mode.tile + " goes:"));
      mode.places.forEach(function (p) {
        items.push(el("button", p.id, { type: "button", "class": "place", "data-place": p.id,
                                        "aria-label": mode.tile + " " + p.id + " (" + p.entry + ")" }));
      });
    } else if (mode && mode.kind === "draw") {
      items.push(el("span", "drawn tile? "));
      items.push(el("button", "unseen", { type: "button", "class": "place", "data-draw": "unseen" }));
    } else if (mode && mode.kind === "start") {
      items.push(el("span", "deal, " + mode.leader + " leads: the tile turned up? (tap it)"));
    } else if (mode && mode.kind === "pair") {
      items.push(el("span", "pair play: " + (mode.tiles.join(" & ") || "tap its two tiles")));
    } else if (mode && mode.kind === "confirm") {
      items.push(el("span", "ends the hand: tap it again to write it, anything else to go on"));
    } else if (mode && mode.kind === "reveal") {
      items.push(el("span", mode.player + "'s tiles: " + (mode.tiles.join(" ") || "(tap them on the pad)")));
      items.push(el("button", "reveal", { type: "button", "class": "place", "data-reveal": "send" }));
      items.push(el("button", "not shown", { type: "button", "class": "place", "data-reveal": "skip" }));
    }
    fill($("places"), items);
  }

  function showEvents() {
    fill($("events"), doc.events.slice().reverse().map(function (e) {
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
    var items = refused.map(function (r) {
      return el("li", r.label + ": refused: " + r.error, { "class": "refused" });
    });
    q.entries.forEach(function (e) {
      items.push(el("li", (e.player && e.moves ? e.player + ": " : "") + e.label + " · pending, #" + e.seq,
                    { "class": "pending", "data-pending-seq": String(e.seq) }));
    });
    fill($("queue"), items);
  }

  function showConflict(q) {
    var box = $("conflict");
    box.hidden = !conflict;
    if (!conflict || !doc) return;
    var theirs = doc.events.filter(function (e) { return e.seq > conflict.base; }).map(function (e) {
      return "#" + e.seq + " " + e.words;
    });
    var mine = q.entries.map(function (e) { return e.label; });
    $("conflict-text").textContent = "The server has " + (doc.seq - conflict.base) + " event(s) you had not seen: " +
      (theirs.join("; ") || "-") + ". Yours, not stored: " + (mine.join("; ") || "-") + ".";
  }

  // -- taps ---------------------------------------------------------------------------------------
  function entryFor(name) {
    return name === "pass" ? doc.actions.pass : name === "block" ? doc.actions.block
      : name === "undo" ? doc.actions.undo : null;
  }

  function tapTile(name) {
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
    if (mode && mode.kind === "choose" && mode.tile === name) { mode = null; show(); return; }
    if (behind()) {  // built on entries not yet stored or shown: the place is asked now, among the table's ends
      var typed = name.replace("-", ""), ends = doc.places || [];
      if (ends.length < 2) { enqueue({ label: "play " + name, body: typed, tile: name, moves: true }); return; }
      mode = { kind: "choose", tile: name, places: ends.map(function (p) {
        return { id: p.id, entry: typed + p.suffix, end: p.end };
      }) };
      show();
      return;
    }
    if (t.places.length === 1) enqueue({ label: "play " + name, body: t.places[0].entry, tile: name, moves: true });
    else if (t.places.length > 1) { mode = { kind: "choose", tile: name, places: t.places }; show(); }
  }

  function tapAction(b) {
    var name = b.dataset.action;
    if (name === "declare") {
      var d = (doc.actions.declare || [])[b.dataset.suit === "even" ? 1 : 0];
      enqueue(d);
    } else if (name === "draw") {
      if (mode && mode.kind === "draw") { enqueue({ label: "draw unseen", body: doc.actions.draw.body }); return; }
      mode = doc.pad.some(function (t) { return t.draw; }) && !queue().entries.length ? { kind: "draw" } : null;
      if (!mode) enqueue({ label: "draw unseen", body: doc.actions.draw.body });
      else show();
    } else if (name === "reveal") {  // the table says the hand is over: it ends the hand, asked once
      if (doc.prompt.reveal || confirmed("reveal")) startReveal();
    } else if (name === "deal") {
      var deal = doc.prompt.deal, leader = b.dataset.leader;
      if (!deal || deal.leaders.indexOf(leader) < 0) return;
      if (deal.start) { mode = { kind: "start", leader: leader }; show(); return; }
      enqueue({ label: "deal, " + leader + " leads", type: JSONL,
                body: JSON.stringify({ type: "deal", leader: leader, hands: null }) + "\n" });
    } else if (name === "pair") {
      mode = mode && mode.kind === "pair" ? null : { kind: "pair", tiles: [] };
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
    if (mode && mode.kind === "confirm" && mode.action === action) { mode = null; return true; }
    mode = { kind: "confirm", action: action };
    show();
    return false;
  }

  function startReveal() {
    if (doc.prompt.reveal) { mode = { kind: "reveal", player: doc.prompt.reveal, tiles: [] }; show(); return; }
    revealing = true;
    mode = { kind: "reveal-wait" };
    load();
  }

  function tapReveal(how) {
    if (!mode || mode.kind !== "reveal") return;
    if (how === "skip") skipped.push(mode.player);
    else enqueue({ label: "reveal " + mode.player + " " + mode.tiles.join(" "), type: JSONL,
                   body: JSON.stringify({ type: "reveal", player: mode.player, tiles: mode.tiles }) + "\n" });
    mode = null;
    load();
  }

  root.addEventListener("click", function (ev) {
    var b = ev.target.closest("button, #picture [data-place]");
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
      else { mode = { kind: "undo", seq: e.seq }; show(); }
    }
  });

  $("entry").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var line = $("entry-line"), text = line.value.trim();
    if (!text) return;
    line.value = "";
    enqueue({ label: text, body: text, line: true });
  });

  window.addEventListener("online", function () { pump(); });
  window.addEventListener("storage", function (ev) { if (ev.key === QUEUE) show(); });
  setInterval(function () { if (queue().entries.length && !conflict && !halted) pump(); }, 3000);
  // a reload while the server is out of reach: the service worker keeps this page, its script and style
  // (browsers allow it on localhost and HTTPS only: elsewhere the page works as before while open)
  if (navigator.serviceWorker && window.isSecureContext) {
    navigator.serviceWorker.addEventListener("message", function (ev) {
      if (ev.data && ev.data.kept === location.pathname) root.dataset.reload = "offline";
    });
    navigator.serviceWorker.register("/record-sw.js", { scope: "/m/" }).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (reg) {
      var assets = Array.prototype.map.call(document.querySelectorAll("script[src]"), function (s) {
        return new URL(s.src).pathname;
      });
      if (reg.active) reg.active.postMessage({ keep: location.pathname, assets: assets });
    }).catch(function () { /* refused (private browsing, storage off): the page works while open */ });
  }
  doc = stored(DOC);
  show();
  load();
  pump();
})();

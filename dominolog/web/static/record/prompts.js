// dominolog recorder: what the page says and asks (docs/recorder-phone.md): the banner (offline,
// waiting, refused, halted, conflict), the prompt and its offer (a deal, a reveal), the agreement asked
// at a hand's end, the places a tile may go, a conflict with another writer.
import { $, el, fill, mover, root, S } from "./state.js";

export function showBanner(q) {
  var waiting = q.entries.length, conflict = S.conflict, offline = S.offline, halted = S.halted;
  var state = conflict ? "conflict" : offline ? "offline" : waiting ? "pending" : "idle";
  root.dataset.state = state;
  root.dataset.pending = String(waiting);
  var banner = $("banner");
  var no = S.refused[0];
  banner.textContent = halted ? "not sent: " + halted + ": open the table card's link again"
    : conflict ? "conflict: " + conflict.error
    : offline ? "offline, " + waiting + " waiting: keep tapping, they are sent when the server answers"
    : no ? "refused: " + no.label + ": " + no.error + (no.line ? " · fix it in the line and tap enter"
                                                               : " · tap what really happened")
    : waiting ? waiting + " waiting" : "";
  banner.className = "banner " + state + (halted ? " halted" : "") + (no && !halted && !conflict && !offline ? " refused" : "");
}

export function showPrompt(q, ahead) {
  var doc = S.doc, p = doc.prompt;
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
}

export function showPlaces() {
  var items = [], mode = S.mode;
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

export function showConflict(q) {
  var box = $("conflict"), conflict = S.conflict, doc = S.doc;
  box.hidden = !conflict;
  if (!conflict || !doc) return;
  var theirs = doc.events.filter(function (e) { return e.seq > conflict.base; }).map(function (e) {
    return "#" + e.seq + " " + e.words;
  });
  var mine = q.entries.map(function (e) { return e.label; });
  $("conflict-text").textContent = "The server has " + (doc.seq - conflict.base) + " event(s) you had not seen: " +
    (theirs.join("; ") || "-") + ". Yours, not stored: " + (mine.join("; ") || "-") + ".";
}

// dominolog: the organiser's page. The token comes in the link's fragment (#organiser=TOKEN), which
// the browser never sends to the server; it is kept in this tab's sessionStorage and the fragment
// removed from the address bar. Every request sends it as Authorization: Bearer (no cookie). What is
// shown is rendered and escaped by the server (/organiser/part); what this script writes itself is
// set as text, never as HTML.
(function () {
  "use strict";
  var KEY = "dominolog-organiser";
  var main = document.getElementById("organiser");
  var said = document.getElementById("said");
  var state = document.getElementById("organiser-state");
  var match = /(?:^#|&)organiser=([^&]+)/.exec(location.hash);
  if (match) {
    sessionStorage.setItem(KEY, decodeURIComponent(match[1]));
    history.replaceState(null, "", location.pathname + location.search);
  }
  var token = sessionStorage.getItem(KEY);
  if (!main || !token) return;

  function say(text) { said.textContent = text; }
  function call(method, url, body) {
    var init = { method: method, cache: "no-store", headers: { Authorization: "Bearer " + token } };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(url, init).then(function (r) {
      if (r.ok) return r;
      return r.json().then(
        function (b) { return Promise.reject(r.status + ": " + (b.error || "refused")); },
        function () { return Promise.reject(String(r.status)); }
      );
    });
  }
  var EVENT_KEY = "dominolog-organiser-event";
  function load() {
    var picked = sessionStorage.getItem(EVENT_KEY);
    return call("GET", "/organiser/part" + (picked ? "?event=" + encodeURIComponent(picked) : ""))
      .then(function (r) { return r.text(); })
      .then(function (html) { main.innerHTML = html; if (state) state.textContent = "organiser"; })
      .catch(function (why) { say("The organiser's page is refused (" + why + "): open the organiser's link again."); });
  }
  function failed(why) { say("Refused: " + why); }
  function saveCards(blob, name) {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
  }
  function eventUrl(name, rest) { return "/api/events/" + encodeURIComponent(name) + (rest || ""); }
  function eventStep(method, url, body, done) {
    return call(method, url, body)
      .then(function (r) { return r.json(); })
      .then(function (doc) { say(done(doc)); return load(); }, failed);
  }

  main.addEventListener("click", function (e) {
    var b = e.target.closest("button[data-action]");
    if (!b) return;
    var action = b.dataset.action;
    if (action === "table-token") {
      call("POST", "/api/tokens", { match: b.dataset.match, who: "organiser page" })
        .then(function (r) { return r.json(); })
        .then(function (t) {
          say("Table token " + t.id + " for " + t.match + ": " + t.token + " (shown once). Recorder link: " +
            location.origin + "/m/" + encodeURIComponent(t.match) + "/record#token=" + t.token);
          return load();
        }, failed);
    } else if (action === "revoke") {
      call("DELETE", "/api/tokens/" + encodeURIComponent(b.dataset.id))
        .then(function () { say("Token " + b.dataset.id + " revoked."); return load(); }, failed);
    } else if (action === "pick-event") {
      sessionStorage.setItem(EVENT_KEY, b.dataset.event);
      load();
    } else if (action === "pair") {
      eventStep("POST", eventUrl(b.dataset.event, "/rounds"), {}, function (doc) {
        return "Round " + doc.round + " paired: print its cards.";
      });
    } else if (action === "unpair") {
      if (!window.confirm("Undo the last round's pairing?")) return;
      eventStep("DELETE", eventUrl(b.dataset.event, "/rounds/last"), undefined, function (doc) {
        return "Round " + doc.undone + "'s pairing undone: its matches are closed, and it can be paired again.";
      });
    } else if (action === "withdraw") {
      if (!window.confirm("Withdraw " + b.dataset.entrant + " from the next round on?")) return;
      eventStep("POST", eventUrl(b.dataset.event, "/withdrawals"), { entrant: b.dataset.entrant }, function () {
        return b.dataset.entrant + " withdrawn from the next round on.";
      });
    } else if (action === "forfeit") {
      var w = b.dataset.winner || null;
      if (!window.confirm(w ? w + " wins " + b.dataset.match + " by forfeit?" : "Both sides lose " + b.dataset.match + "?")) return;
      eventStep("POST", eventUrl(b.dataset.event, "/forfeits"), { match: b.dataset.match, winner: w }, function () {
        return "Match " + b.dataset.match + " ended by the director.";
      });
    } else if (action === "end-event") {
      if (!window.confirm("End the event? No more rounds can be paired.")) return;
      eventStep("POST", eventUrl(b.dataset.event, "/end"), {}, function () { return "The event has ended."; });
    } else if (action === "round-cards") {
      var roundLoopback = document.getElementById("round-cards-loopback");
      var reprinted = "none";
      call("POST", "/api/cards", { matches: JSON.parse(b.dataset.matches), loopback: !!(roundLoopback && roundLoopback.checked) })
        .then(function (r) { reprinted = r.headers.get("X-Dominolog-Revoked") || "none"; return r.blob(); })
        .then(function (blob) {
          saveCards(blob, "round-" + b.dataset.round + "-cards.html");
          say("Round " + b.dataset.round + "'s cards saved as round-" + b.dataset.round +
            "-cards.html (a new table token a card): open it and print it." +
            (reprinted === "none" ? "" : " Reprinted: " + reprinted + "."));
          return load();
        }, failed);
    } else if (action === "cards") {
      var loopback = document.getElementById("cards-loopback");
      var revoked = "none";
      call("POST", "/api/cards", { loopback: !!(loopback && loopback.checked) })
        .then(function (r) { revoked = r.headers.get("X-Dominolog-Revoked") || "none"; return r.blob(); })
        .then(function (blob) {
          var a = document.createElement("a");
          a.href = URL.createObjectURL(blob);
          a.download = "cards.html";
          document.body.appendChild(a);
          a.click();
          a.remove();
          say("Table cards saved as cards.html (a new table token a card): open it and print it." +
            (revoked === "none" ? "" : " Reprinted: " + revoked + "."));
          return load();
        }, failed);
    }
  });

  function submitEvent(form) {
    var f = form.elements, name = form.dataset.event;
    if (form.id === "event-form") {
      var body = { name: f.name.value, format: f.format.value, rounds: Number(f.rounds.value),
        variant: f.variant.value, teams: f.teams.checked };
      if (f.target.value) body.options = { target: Number(f.target.value) };
      sessionStorage.setItem(EVENT_KEY, f.name.value.trim());
      return eventStep("POST", "/api/events", body, function () { return "Event " + body.name + " made."; });
    }
    if (form.id === "players-form") {
      var names = f.names.value.split("\n").map(function (n) { return n.trim(); }).filter(Boolean);
      return eventStep("POST", eventUrl(name, "/players"), { names: names, club: f.club.value || null }, function () {
        return names.length + " player(s) registered.";
      });
    }
    if (form.id === "team-form") {
      return eventStep("POST", eventUrl(name, "/teams"), { team: f.team.value, players: [f.p1.value, f.p2.value] },
        function () { return "Team " + f.team.value + " registered."; });
    }
    return null;
  }

  main.addEventListener("submit", function (e) {
    e.preventDefault();
    var form = e.target, by = e.submitter;
    if (submitEvent(form) !== null) return;
    var event = form.elements.event.value;
    if (by && by.name === "viewer") {
      call("POST", "/api/tokens", { role: "viewer", event: event, who: "organiser page" })
        .then(function (r) { return r.json(); })
        .then(function (t) {
          say("Viewing key " + t.id + " for " + event + ": " + t.token + " (shown once). Link: " +
            location.origin + "/?key=" + encodeURIComponent(t.token));
          return load();
        }, failed);
    } else {
      var priv = !(by && by.value === "false");
      call("POST", "/api/private", { event: event, private: priv })
        .then(function () { say(event + (priv ? " is private." : " is public.")); return load(); }, failed);
    }
  });

  // the club event's tables and standings kept current: when a match moves (the board's stream), the
  // events part is fetched again, unless the organiser is typing in one of its forms
  var busy = false, again = false;
  function typing() {
    var events = document.getElementById("events");
    if (!events) return false;
    if (events.querySelector("details.new-event[open]")) return true;  // (the director is making an event)
    var a = document.activeElement;
    if (a && events.contains(a) && /^(INPUT|TEXTAREA|SELECT)$/.test(a.tagName)) return true;
    return Array.prototype.some.call(events.querySelectorAll("textarea, input[type=text], input:not([type])"),
      function (f) { return f.value !== ""; });
  }
  function refreshEvents() {
    var events = document.getElementById("events");
    if (!events || typing()) return;
    if (busy) { again = true; return; }
    busy = true;
    var picked = sessionStorage.getItem(EVENT_KEY);
    call("GET", "/organiser/events" + (picked ? "?event=" + encodeURIComponent(picked) : ""))
      .then(function (r) { return r.text(); })
      .then(function (html) {
        var now = document.getElementById("events");
        if (now && !typing()) now.outerHTML = html;
      })
      .catch(function () {})
      .then(function () { busy = false; if (again) { again = false; refreshEvents(); } });
  }
  if (window.EventSource) {
    var source = new EventSource("/api/board/stream");
    source.onmessage = refreshEvents;
    source.addEventListener("board", refreshEvents);
    source.onopen = refreshEvents;  // (after a lost connection: what moved meanwhile)
  }

  load();
})();

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
  function load() {
    return call("GET", "/organiser/part")
      .then(function (r) { return r.text(); })
      .then(function (html) { main.innerHTML = html; if (state) state.textContent = "organiser"; })
      .catch(function (why) { say("The organiser's page is refused (" + why + "): open the organiser's link again."); });
  }
  function failed(why) { say("Refused: " + why); }

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

  main.addEventListener("submit", function (e) {
    e.preventDefault();
    var form = e.target, by = e.submitter;
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

  load();
})();

// dominolog: the phone recorder's service worker (docs/recorder-phone.md, "Reloading offline").
// Served at /record-sw.js (its scope covers /m/), registered by record.js. It keeps the recorder page
// of each match opened, its script, the modules it imports and its style: network first, the cache
// when the network fails.
// It never caches an API answer or a write: any other request goes to the network untouched.
"use strict";
var CACHE = "dominolog-recorder-3";
// the page's script, under its fingerprinted name (/static/record.<hash>.js) or its plain one, and the
// modules it imports (/static/record/NAME.js, under their plain names: dominolog/web/assets.py)
var ASSET = /^\/static\/record(\.[0-9a-f]{12})?\.(js|css)$|^\/static\/record\/[a-z]+\.js$/;
// every module of static/record/, kept with the page (tests/test_web_recorder_modules.py checks the list)
var MODULES = ["/static/record/pad.js", "/static/record/prompts.js", "/static/record/queue.js",
               "/static/record/reading.js", "/static/record/state.js", "/static/record/table.js"];
var PAGE = /^\/m\/[^/]+\/record$/;

// a page it keeps: one answered, or the recorder's frame of a private match (404, as for a match not
// stored: the page reads the match with the table's token)
function keepable(r) {
  return r.ok || (r.status === 404 && r.headers.get("X-Dominolog-Recorder") === "yes");
}

function kept(url) {
  return url.origin === self.location.origin && (PAGE.test(url.pathname) || ASSET.test(url.pathname));
}

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (ev) {
  ev.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n.indexOf("dominolog-recorder-") === 0 && n !== CACHE; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

// the page, once the worker is active: "keep this page" (its first load did not pass through the worker)
self.addEventListener("message", function (ev) {
  var data = ev.data || {};
  if (typeof data.keep !== "string") return;
  var url = new URL(data.keep, self.location.origin);
  if (!kept(url) || !PAGE.test(url.pathname)) return;
  ev.waitUntil(caches.open(CACHE).then(function (cache) {
    var assets = (Array.isArray(data.assets) ? data.assets : []).filter(function (p) {
      return typeof p === "string" && ASSET.test(p);
    }).concat(MODULES);
    return Promise.all([url.pathname].concat(assets).map(function (path) {
      return fetch(path, { cache: "no-store" }).then(function (r) {
        if (!keepable(r)) throw new Error(String(r.status));
        return cache.put(path, r);
      });
    }));
  }).then(function () {
    if (ev.source) ev.source.postMessage({ kept: url.pathname });
  }, function () { /* offline already: the next load online keeps it */ }));
});

self.addEventListener("fetch", function (ev) {
  var req = ev.request;
  if (req.method !== "GET") return;
  var url = new URL(req.url);
  if (!kept(url)) return;
  var key = url.origin + url.pathname;  // without the query (the token is in the fragment, never sent)
  ev.respondWith(fetch(req).then(function (r) {
    if (keepable(r)) {
      var copy = r.clone();
      ev.waitUntil(caches.open(CACHE).then(function (cache) { return cache.put(key, copy); }));
    }
    return r;
  }, function () {
    return caches.open(CACHE).then(function (cache) { return cache.match(key); }).then(function (r) {
      return r || Response.error();
    });
  }));
});

/* The table device's service worker (served at /table/sw.js, so its scope is /table/).
 *
 * Written by hand, not with Workbox: Workbox's precaching needs its build step (a bundler or
 * workbox-build injecting a manifest) and workbox-sw loads its modules from a CDN unless
 * configured otherwise; what the table needs is two small rules, kept readable here.
 *
 * - Pages under /table/ and the static files they load: the network first, the cached copy
 *   when there is no network (every good answer refreshes the copy; a page from the copy is
  marked data-page="kept"; a page not kept is answered with the kept "no connection" page). table.js fills the
 *   cache with the round's pages when the round page loads online, so "next board", "next
 *   round" and a reload work through a Wi-Fi drop, in the language they were rendered in.
 *   A request marked fresh (OfflineQueue.FRESH_HEADER) is answered by the network only:
 *   after a result is stored the page must see the saved board, not the empty form kept
 *   here; that answer replaces the kept copy, for the next drop.
 * - Background Sync ("table-queue"): the queued actions (offline_queue.js, in IndexedDB)
 *   are sent in order even when no table page is open; pages flush too (online event,
 *   visibility, a timer), and the server stores each idempotency key once.
 */
"use strict";

importScripts("{{ queue_url|escapejs }}", "{{ send_url|escapejs }}");

var CACHE = OfflineQueue.CACHE;
var TABLE = "{{ table_prefix|escapejs }}";
var STATIC = "{{ static_prefix|escapejs }}";
var OFFLINE_PAGE = "{{ offline_url|escapejs }}"; // shown for a page not kept, offline
var NAVIGATION_WAIT_MS = 6000; // a page slower than this comes from the cache, if there

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) {
      return n.indexOf("clubsite-table-") === 0 && n !== CACHE;
    }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function kept(response) {
  // A page answered from the cache says so (table-app's data-page="kept"): what it shows as
  // saved is as old as the copy, so the device's own record of saved boards stands.
  var type = response.headers.get("Content-Type") || "";
  if (type.indexOf("text/html") !== 0) return response;
  return response.text().then(function (html) {
    return new Response(html.replace('data-page="server"', 'data-page="kept"'), {
      status: response.status, statusText: response.statusText, headers: response.headers });
  });
}

function cached(request) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(request, { ignoreVary: true });
  }).then(function (hit) { return hit && kept(hit); });
}

function fromNetwork(request) {
  return fetch(request).then(function (response) {
    if (response.ok && !response.redirected && response.type === "basic") {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { return cache.put(request, copy); });
    }
    return response;
  });
}

function networkFirst(request) {
  var network = fromNetwork(request);
  var slow = request.mode === "navigate" ? new Promise(function (resolve) {
    setTimeout(function () { cached(request).then(resolve); }, NAVIGATION_WAIT_MS);
  }) : new Promise(function () {});
  return Promise.race([network, slow.then(function (hit) { return hit || network; })])
    .catch(function (error) {
      return cached(request).then(function (hit) {
        if (hit) return hit;
        if (request.mode === "navigate") {
          return cached(new Request(OFFLINE_PAGE)).then(function (page) {
            if (page) return page;
            throw error;
          });
        }
        throw error;
      });
    });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return; // results go through the queue, never a cache
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.indexOf(TABLE) !== 0 && url.pathname.indexOf(STATIC) !== 0) return;
  if (url.pathname === TABLE + "sw.js") return;
  if (request.headers.has(OfflineQueue.FRESH_HEADER)) {
    event.respondWith(fromNetwork(request)); // the server's answer only, kept for a drop
    return;
  }
  event.respondWith(networkFirst(request));
});

function post(url, body, csrf) {
  return fetch(url, {
    method: "POST", credentials: "same-origin", body: body, signal: OfflineQueue.timeout(),
    headers: { "Accept": "application/json", "X-CSRFToken": csrf,
      "Content-Type": "application/x-www-form-urlencoded" }
  }).then(function (response) {
    return response.json().catch(function () { return {}; }).then(function (data) {
      return { status: response.status, data: data };
    });
  });
}

function syncAll() {
  return OfflineQueue.exclusive(function () {
    return OfflineQueue.open(indexedDB).then(function (queue) {
      return queue.list().then(function (rows) {
        var tables = rows.map(function (r) { return r.table; })
          .filter(function (t, i, all) { return all.indexOf(t) === i; });
        return tables.reduce(function (chain, table) {
          return chain.then(function () { return queue.flush(table, post); });
        }, Promise.resolve()).then(function () { return queue.pending(); });
      });
    });
  }).then(function (left) {
    return self.clients.matchAll().then(function (clients) {
      clients.forEach(function (client) { client.postMessage({ type: "table-queue-synced" }); });
      if (left) throw new Error("still offline: the browser tries the sync again later");
    });
  });
}

self.addEventListener("sync", function (event) {
  if (event.tag === "table-queue") event.waitUntil(syncAll());
});

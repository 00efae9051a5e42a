/* The table's pages kept for a Wi-Fi drop: the service worker (/table/sw.js) registered,
 * the round's and the next round's pages fetched into its cache when the round page loads
 * online, and Background Sync asked for while something waits to be sent. */
(function (T) {
  "use strict";

  T.registerWorker = function registerWorker() {
    if (!("serviceWorker" in navigator) || !T.app.dataset.worker) return;
    navigator.serviceWorker.register(T.app.dataset.worker, { scope: T.app.dataset.scope })
      .then(keepRound, function () { /* no worker: the queue still works */ });
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "table-queue-synced") T.refresh();
    });
  };

  function keepRound() {
    // On the round page: fetch its pages (and the next round's) into the worker's cache.
    var listNode = document.getElementById("table-offline");
    if (!listNode || !window.caches || navigator.onLine === false) return;
    var urls = JSON.parse(listNode.textContent);
    return navigator.serviceWorker.ready.then(function () {
      return caches.open(T.Q.CACHE);
    }).then(function (cache) {
      return Promise.all(urls.map(function (url) {
        return fetch(url, { credentials: "same-origin" }).then(function (response) {
          if (response.ok && !response.redirected) return cache.put(url, response);
        });
      }));
    }).then(function () {
      T.app.dataset.offline = "ready";
    }, function () { /* kept what could be fetched */ });
  }

  T.askForSync = function askForSync() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.sync) return registration.sync.register("table-queue");
    }).catch(function () { /* the page's own retries still run */ });
  };
})(window.TableDevice = window.TableDevice || {});

// The pages kept for a Wi-Fi drop (tournaments/static/tournaments/table_worker.js): the worker
// registered for /table/, the round's pages fetched into its cache. Run: node --test tests/js/
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { page } = require("./page.js");

test("the round page registers the worker and keeps every page it lists", async () => {
  const urls = ["/table/play/", "/table/play/1/1/", "/table/play/1/2/"];
  const p = page(`<div id="table-app" data-worker="/table/sw.js" data-scope="/table/"></div>
    <script type="application/json" id="table-offline">${JSON.stringify(urls)}</script>`,
  ["offline_queue", "table_worker"]);
  const { window, T } = p;
  const registered = [];
  const kept = [];
  const ready = Promise.resolve({ sync: { register: async (tag) => registered.push(tag) } });
  Object.defineProperty(window.navigator, "serviceWorker", { value: {
    register: async (url, options) => { registered.push([url, options.scope]); },
    addEventListener() {}, ready } });
  window.caches = { open: async () => ({ put: async (url) => { kept.push(url); } }) };
  window.fetch = async (url) => ({ ok: !url.endsWith("/2/"), redirected: false, url });
  T.app = window.document.getElementById("table-app");
  T.registerWorker();
  for (let i = 0; i < 20 && !T.app.dataset.offline; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.deepEqual(registered[0], ["/table/sw.js", "/table/"]);
  assert.deepEqual(kept, ["/table/play/", "/table/play/1/1/"]); // a page that failed: not kept
  assert.equal(T.app.dataset.offline, "ready");
  T.askForSync();
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(registered[1], "table-queue");
});

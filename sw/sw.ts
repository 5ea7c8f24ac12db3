// The service worker is thin glue: precache the built app, start it offline, update on request.
// User data never goes through Cache Storage: Dexie is the only read model (DESIGN §4).
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { createDb, type AppDb } from '../src/offline/db';
import { loadSession } from '../src/offline/session';
import { installOutboxDrain, type WorkerScope } from '../src/offline/worker-drain';

declare let self: ServiceWorkerGlobalScope;

/** Messages the page may post to the worker (see src/app/pwa/pwa-prompt.tsx). */
type PageMessage = { type: 'SKIP_WAITING' };

function isPageMessage(data: unknown): data is PageMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'SKIP_WAITING';
}

// Every built asset, lazy route chunks included, so any screen opens offline after the first visit.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Hash routing: the app is always the document at "/". Only those navigations get the cached
// shell; everything else (/api/docs, /dev/mailbox, receipt downloads) goes to the network.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    allowlist: [/^\/(?:index\.html)?(?:\?.*)?$/],
  }),
);

// A new version waits until the user accepts the "Nueva versión disponible" prompt, so a page
// is never swapped mid-edit and page and worker always agree on the Dexie schema.
self.addEventListener('message', (event) => {
  if (isPageMessage(event.data)) void self.skipWaiting();
});

// Once active, take over open pages so they see the new worker without a second reload.
clientsClaim();

// The outbox (DESIGN §4): Background Sync `sync`, the page's {type:'drain'} message and worker
// start-up all run the shared drain engine, with the token of the stored session.
let outboxDb: AppDb | undefined;
installOutboxDrain(self as unknown as WorkerScope, {
  getDb: () => (outboxDb ??= createDb()),
  getToken: async () => (await loadSession())?.token ?? null,
});

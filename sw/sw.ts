// The service worker is thin glue: precache the built app, start it offline, update on request.
// User data never goes through Cache Storage: Dexie is the only read model (DESIGN §4).
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

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

// Hook point for the outbox (issue 3): a `message` of {type:'drain'} and the Background Sync
// `sync` event both call the shared drain engine from src/offline. Add them below.

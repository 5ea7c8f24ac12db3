// The root of every screen: routed content, the toast area and the (lazy) PWA prompt.
import { Outlet } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Toaster } from './ui/toaster';

// Owned by the PWA helper; lazy so workbox-window is not in the entry chunk.
const PwaPrompt = lazy(() => import('./pwa/pwa-prompt'));

/** How long to wait for an idle moment after `load` before mounting the prompt anyway. */
const IDLE_TIMEOUT_MS = 2000;

/**
 * True once the page has loaded and the main thread is idle: the prompt (its chunk, workbox-window,
 * the worker registration and the storage.persist() question) must not compete with the first screen.
 */
function useAfterStartup(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let cancel = () => {};
    const whenIdle = () => {
      if (typeof window.requestIdleCallback === 'function') {
        const id = window.requestIdleCallback(() => setReady(true), { timeout: IDLE_TIMEOUT_MS });
        cancel = () => window.cancelIdleCallback(id);
      } else {
        // Safari has no requestIdleCallback.
        const id = window.setTimeout(() => setReady(true), 500);
        cancel = () => window.clearTimeout(id);
      }
    };
    if (document.readyState === 'complete') whenIdle();
    else {
      window.addEventListener('load', whenIdle, { once: true });
      cancel = () => window.removeEventListener('load', whenIdle);
    }
    return () => cancel();
  }, []);
  return ready;
}

export function RootLayout() {
  const afterStartup = useAfterStartup();
  return (
    <>
      <Toaster />
      <Outlet />
      {afterStartup && (
        <Suspense fallback={null}>
          <PwaPrompt />
        </Suspense>
      )}
    </>
  );
}

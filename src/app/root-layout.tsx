// The root of every screen: routed content, the toast area and the (lazy) PWA prompt.
import { Outlet } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { Toaster } from './ui/toaster';

// Owned by the PWA helper; lazy so workbox-window is not in the entry chunk.
const PwaPrompt = lazy(() => import('./pwa/pwa-prompt'));

export function RootLayout() {
  return (
    <>
      <Toaster />
      <Outlet />
      <Suspense fallback={null}>
        <PwaPrompt />
      </Suspense>
    </>
  );
}

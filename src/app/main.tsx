// Entry: read the session before the router renders (spec §2 rule 4 needs it synchronously), then mount.
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MSG } from '../domain/messages';
import { preloadPrefs } from '../offline/prefs';
import { clearSession, loadSession } from '../offline/session';
import { setUnauthorizedHandler } from './api/unauthorized';
import { listenForInstallPrompt } from './layout/install-prompt';
import { createAppRouter } from './router';
import { ANONYMOUS_START, guardRoute, safeRedirect } from './top-level';
import { toast } from './ui/toast-store';
import './ui/theme.css';
import './app.css';

declare const __BUILD_LABEL__: string;

async function start(): Promise<void> {
  // The browser offers its install prompt once, early: kept for the login screen's 'Instalar la app'.
  listenForInstallPrompt();
  if (__BUILD_LABEL__) document.documentElement.dataset.build = __BUILD_LABEL__;
  const session = await loadSession();
  // Signed in: fetch and run Dexie (the layout's largest dependency) now, in a task of its own,
  // rather than inside the one that evaluates the whole signed-in layout.
  if (session) void import('../offline/db');
  // The layout's preferences too, so it renders with them the first time (signed-in-layout.tsx).
  const prefs = session ? preloadPrefs() : null;
  // Launched from the home screen (start_url '/', no fragment): reopen the last signed-in screen.
  if (prefs && (location.hash === '' || location.hash === '#')) {
    const { lastRoute } = await prefs;
    if (lastRoute && lastRoute.startsWith('/')) history.replaceState(null, '', `#${lastRoute}`);
  }
  // Signed out at '#/' (a newcomer's first page): the guard would send the router to the anonymous form
  // once it had matched and begun loading '/', a second navigation before the first paint. Start there.
  if (!session) {
    const guard = guardRoute(location.hash.replace(/^#/, '') || '/', false);
    if (guard.kind === 'redirect' && guard.to === ANONYMOUS_START) history.replaceState(null, '', `#${ANONYMOUS_START}`);
  }
  const router = createAppRouter();
  setUnauthorizedHandler(() => {
    void clearSession().then(() => {
      toast.warning(MSG.unauthorized);
      // Back to the same screen after signing in again (an OAuth authorisation keeps its token).
      const back = safeRedirect(router.state.location.href);
      void router.navigate({ to: '/login', search: back ? { redirect: back } : {}, replace: true });
    });
  });
  const root = document.getElementById('root');
  if (!root) return;
  createRoot(root).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
}

void start();

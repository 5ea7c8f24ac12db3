// The page side of the service worker: update prompt, offline-ready note, persistent storage
// and the iOS install hint. Lazy-loaded by the root layout so workbox-window stays out of the entry.
import { useRouterState } from '@tanstack/react-router';
import { useEffect, useEffectEvent, useId, useRef, useState } from 'react';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { toast } from '../ui/toast-store';
import { deviceFlag, setDeviceFlag } from '../../offline/device-token';
import type { DrainStopMessage } from '../../offline/drain-triggers';
import { isIosSafariBrowser } from '../layout/install-prompt';
import './pwa-prompt.css';

const UPDATE_CHECK_MS = 60 * 60 * 1000;
const OFFLINE_NOTE_MS = 6000;
const PERSIST_RETRY_MS = 7 * 24 * 60 * 60 * 1000;
const PERSIST_ASKED_KEY = 'cc.pwa.persist-asked-at';
const IOS_HINT_DISMISSED_KEY = 'cc.pwa.ios-hint-dismissed';



/**
 * Asks once for persistent storage (Safari evicts a non-installed site's data after 7 days
 * without a visit); if the browser said no, asks again at most once a week.
 */
async function requestPersistentStorage(now: number): Promise<void> {
  const storage = navigator.storage as StorageManager | undefined;
  if (!storage?.persist || !storage.persisted) return;
  if (await storage.persisted()) return;
  const askedAt = Number((await deviceFlag(PERSIST_ASKED_KEY)) ?? 0);
  if (now - askedAt < PERSIST_RETRY_MS) return;
  await setDeviceFlag(PERSIST_ASKED_KEY, String(now));
  await storage.persist();
}

/**
 * 'Lista para usarse sin conexión' arrives while the first screen is in use (the worker finishes caching
 * in the background): shown then, it would cover that screen's bottom buttons, or push it down under the
 * person's finger. It waits for the next screen and comes in the toast band with it, for a few seconds
 * (the band is a live region: screen readers hear it then too).
 */
function useOfflineReadyNote(ready: boolean, done: () => void): void {
  const path = useRouterState({ select: (s) => s.location.pathname });
  const readyOn = useRef<string | null>(null);
  const finish = useEffectEvent(done);
  useEffect(() => {
    if (!ready) {
      readyOn.current = null;
      return;
    }
    if (readyOn.current === null) {
      readyOn.current = path;
      return;
    }
    if (readyOn.current === path) return;
    toast.info('Lista para usarse sin conexión', undefined, OFFLINE_NOTE_MS);
    finish();
  }, [ready, path]);
}

export default function PwaPrompt() {
  const titleId = useId();
  const updateTimer = useRef<number | undefined>(undefined);
  const [updating, setUpdating] = useState(false);
  const [showIosHint, setShowIosHint] = useState(false);

  const {
    needRefresh: [needRefresh, setNeedRefresh],
    offlineReady: [offlineReady, setOfflineReady],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_swUrl, registration) {
      if (!registration) return;
      // A tab left open for days still learns about new versions.
      window.clearInterval(updateTimer.current);
      updateTimer.current = window.setInterval(() => {
        if (registration.installing || !navigator.onLine) return;
        registration.update().catch(() => undefined);
      }, UPDATE_CHECK_MS);
    },
  });

  useEffect(() => () => window.clearInterval(updateTimer.current), []);

  useEffect(() => {
    void requestPersistentStorage(Date.now()).catch(() => undefined);
  }, []);

  // Read once on mount: shown unless dismissed before on this device.
  useEffect(() => {
    if (!isIosSafariBrowser()) return;
    let live = true;
    void deviceFlag(IOS_HINT_DISMISSED_KEY).then((dismissed) => live && dismissed === null && setShowIosHint(true));
    return () => {
      live = false;
    };
  }, []);

  useOfflineReadyNote(offlineReady && !needRefresh, () => setOfflineReady(false));

  const update = async () => {
    setUpdating(true);
    // Reload once the new worker takes control. Our own listener: workbox-window treats a worker
    // found by a later registration.update() (our hourly check) as "external" and then the
    // plugin's own reload does not fire.
    let reloaded = false;
    const reload = () => {
      if (reloaded) return;
      reloaded = true;
      window.location.reload();
    };
    navigator.serviceWorker?.addEventListener('controllerchange', reload);
    const registration = await navigator.serviceWorker?.getRegistration().catch(() => undefined);
    const waiting = registration?.waiting;
    if (!waiting) {
      // Nothing waits any more: the new version was already accepted (in another tab) and is active.
      reload();
      return;
    }
    // The worker reaching 'activated' also reloads: a controllerchange can come before this listener.
    waiting.addEventListener('statechange', () => {
      if (waiting.state === 'activated') reload();
    });
    // The new worker takes over only once the old one has nothing in flight: a send hanging on a bad
    // connection would hold the update back until its deadline, so the old worker stops sending.
    navigator.serviceWorker?.controller?.postMessage({ type: 'drain-stop' } satisfies DrainStopMessage);
    updateServiceWorker(true).catch(() => setUpdating(false));
    // Told directly as well: workbox-window asks the waiting worker it knows of, which may not be the one
    // waiting now when a later registration.update() found it (seen: the worker stayed 'installed').
    // skipWaiting is idempotent, so a second message costs nothing.
    waiting.postMessage({ type: 'SKIP_WAITING' });
  };

  const dismissIosHint = () => {
    void setDeviceFlag(IOS_HINT_DISMISSED_KEY, '1');
    setShowIosHint(false);
  };

  return (
    <>
      <div className="pwa-visually-hidden" role="status" aria-live="polite">
        {needRefresh ? 'Nueva versión disponible' : ''}
      </div>

      <div className="pwa-stack">
        {needRefresh && (
          <section className="pwa-banner" aria-labelledby={titleId}>
            <p className="pwa-banner__text" id={titleId}>
              Nueva versión disponible
            </p>
            <div className="pwa-banner__actions">
              <button type="button" className="pwa-button pwa-button--secondary" onClick={() => setNeedRefresh(false)}>
                Después
              </button>
              <button
                type="button"
                className="pwa-button pwa-button--primary"
                onClick={() => void update()}
                disabled={updating}
                aria-busy={updating}
              >
                Actualizar
              </button>
            </div>
          </section>
        )}

        {showIosHint && !needRefresh && (
          <aside className="pwa-note pwa-note--hint" aria-label="Instalar Cuentas Claras">
            <p className="pwa-note__text">Para instalar: toca Compartir → Agregar a inicio</p>
            <button type="button" className="pwa-close" aria-label="Cerrar sugerencia de instalación" onClick={dismissIosHint}>
              <CloseIcon />
            </button>
          </aside>
        )}
      </div>
    </>
  );
}

function CloseIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d="M6 6l12 12M18 6L6 18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

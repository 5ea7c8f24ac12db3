// Under the login card: 'Instalar la app' with the browser's prompt where there is one, or the steps on
// iPhone/iPad Safari; and a store link only for the stores the server names (APP_STORE_URL,
// PLAY_STORE_URL). With none of these, nothing: no badge leads to a store page that is not ours.
import { useEffect, useId, useState } from 'react';
import { api } from '../api/client';
import { Icon } from '../ui/icon';
import { isIosSafariBrowser, promptInstall, useCanPromptInstall } from '../layout/install-prompt';

export interface AppLinks {
  app_store_url: string | null;
  play_store_url: string | null;
}

const NO_LINKS: AppLinks = { app_store_url: null, play_store_url: null };

/** Only https links are shown, whatever the answer holds. */
function safeLink(url: unknown): string | null {
  return typeof url === 'string' && /^https:\/\/[^\s"<>]+$/.test(url) ? url : null;
}

// Read by hand, not through the query layer (api/query.ts): that would bring react-query into the login
// route, which must stay small; one cancellable read with no retry is all this needs.
function useAppLinks(): AppLinks {
  const [links, setLinks] = useState<AppLinks>(NO_LINKS);
  useEffect(() => {
    const ctrl = new AbortController();
    api.get<AppLinks>('/api/v2/app_links', undefined, ctrl.signal).then(
      (a) => setLinks({ app_store_url: safeLink(a?.app_store_url), play_store_url: safeLink(a?.play_store_url) }),
      () => undefined, // offline or unavailable: simply no store links
    );
    return () => ctrl.abort();
  }, []);
  return links;
}

function IosSteps({ id }: { id: string }) {
  return (
    <ol id={id} className="install-steps" style={{ flexBasis: '100%', margin: 0, paddingInlineStart: '1.5rem' }}>
      <li>
        Toca <strong>Compartir</strong> en la barra de Safari.
      </li>
      <li>
        Elige <strong>Agregar a inicio</strong>.
      </li>
      <li>
        Toca <strong>Agregar</strong>: Cuentas Claras quedará junto a tus apps.
      </li>
    </ol>
  );
}

export function InstallApp({ ios = isIosSafariBrowser() }: { ios?: boolean }) {
  const canPrompt = useCanPromptInstall();
  const links = useAppLinks();
  const [showSteps, setShowSteps] = useState(false);
  const stepsId = useId();
  if (!canPrompt && !ios && !links.app_store_url && !links.play_store_url) return null;

  return (
    <div className="stores" role="group" aria-label="Instala Cuentas Claras">
      {canPrompt && (
        <button type="button" className="store-badge" onClick={() => void promptInstall().catch(() => false)}>
          <Icon name="phone" />
          <strong>Instalar la app</strong>
        </button>
      )}
      {!canPrompt && ios && (
        <button type="button" className="store-badge" aria-expanded={showSteps} aria-controls={stepsId} onClick={() => setShowSteps((s) => !s)}>
          <Icon name="phone" />
          <strong>Instalar la app</strong>
        </button>
      )}
      {links.app_store_url && (
        <a className="store-badge" href={links.app_store_url} target="_blank" rel="noopener noreferrer">
          <Icon name="phone" />
          <span>
            <small>Descárgala en la</small>
            <strong>App Store</strong>
          </span>
        </a>
      )}
      {links.play_store_url && (
        <a className="store-badge" href={links.play_store_url} target="_blank" rel="noopener noreferrer">
          <Icon name="phone" />
          <span>
            <small>Disponible en</small>
            <strong>Google Play</strong>
          </span>
        </a>
      )}
      {!canPrompt && ios && showSteps && <IosSteps id={stepsId} />}
    </div>
  );
}

// 'Sincronización SAT' (spec §2 SAT sync, §4, §6): the premium advert without the feature, the
// company-only notice for 12-character RFCs, else the persona física's page — connection status, last
// connection, the last sync's result, the CIEC form, the official e.firma method and 'Desconectar'.
import { useRef, useState } from 'react';
import type { Account } from '../../domain/account';
import { MSG } from '../../domain/messages';
import { satSyncView } from '../../domain/sat-sync';
import { db } from '../../offline/db';
import { getSession } from '../../offline/session';
import { syncAccounts } from '../layout/account-sync';
import { ForSelectedAccount } from '../layout/for-selected-account';
import { PremiumAdvert } from '../feature-gates/premium-advert';
import { TXT } from '../strings';
import { Button, buttonClass, Spinner } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { Icon } from '../ui/icon';
import { Skeleton } from '../ui/skeleton';
import { useOnline } from '../use-online';
import { CiecForm } from './ciec-form';
import { EfirmaForm } from './efirma-form';
import { disconnect, isConnected, lastConnectionText, lastResultText, offeredMethods, showsSyncStarted, SYNC_TXT, type FlowContext } from './sync-model';
import { useSyncStatus } from './use-sync-status';
import './sync.css';

/** Plain link (no router context needed), like the premium advert. */
export function CompanyNotice({ rfc }: { rfc: string }) {
  return (
    <section className="card stack sat-company" aria-labelledby="sat-company-title">
      <div className="sat-company__badge" aria-hidden="true">
        <Icon name="building" />
      </div>
      <h2 id="sat-company-title">Sincronización no disponible</h2>
      <p>{MSG.satCompanyOnly}</p>
      <p className="muted">
        El RFC {rfc} es de una persona moral. Para descargar sus comprobantes, importa sus CFDI desde el Dashboard con “Importar CFDIs”.
      </p>
      <div>
        <a href="/#/" className={buttonClass('secondary')}>
          Ir al Dashboard
        </a>
      </div>
    </section>
  );
}

function SyncPanel({ account }: { account: Account }) {
  const online = useOnline();
  const userId = getSession()?.user_id;
  const { status, error, loading, readAt, refresh } = useSyncStatus(userId, account.rfc, online);
  // When a password or an e.firma was last saved here: the card then tells the sync started.
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const statusHeading = useRef<HTMLHeadingElement>(null);
  const [confirming, setConfirming] = useState(false);
  const [disconnecting, setDisconnecting] = useState(false);
  const [disconnectError, setDisconnectError] = useState<string | null>(null);
  const efirmaHeading = useRef<HTMLHeadingElement>(null);

  const ctx: FlowContext = { userId: userId ?? 0, rfc: account.rfc, online, reload: () => syncAccounts(db) };
  const connected = isConnected(account, status);
  const methods = offeredMethods(status);
  const started = showsSyncStarted(savedAt, status, readAt);
  // The previous sync's result, not while the new one is under way.
  const result = status && !started ? lastResultText(status) : null;
  const synchronizedAt = status?.synchronized_at ?? account.synchronized_at;

  /** Saved: the status card, above the forms, says what happens now; on a phone it is scrolled to. */
  function onSaved() {
    setSavedAt(Date.now());
    setDisconnectError(null);
    refresh();
    statusHeading.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
    statusHeading.current?.focus({ preventScroll: true });
  }

  async function confirmDisconnect() {
    setDisconnecting(true);
    const out = await disconnect(ctx);
    setDisconnecting(false);
    setConfirming(false);
    if (out.kind === 'ok') {
      setDisconnectError(null);
      setSavedAt(null);
      refresh();
    } else setDisconnectError(out.message);
  }

  return (
    <div className="sat-grid">
      <section className="card stack sat-status" aria-labelledby="sat-status-title" aria-busy={loading || undefined}>
        <h2 id="sat-status-title" ref={statusHeading} tabIndex={-1}>
          Estado de la conexión
        </h2>
        <p className={connected ? 'sat-badge sat-badge--on' : 'sat-badge sat-badge--off'}>
          <Icon name={connected ? 'check' : 'wifiOff'} /> <span>{connected ? SYNC_TXT.connected : SYNC_TXT.disconnected}</span>
        </p>
        <dl className="sat-facts">
          <dt>RFC</dt>
          <dd>{account.rfc}</dd>
          <dt>{SYNC_TXT.lastConnection}</dt>
          <dd>{lastConnectionText(synchronizedAt)}</dd>
          {status?.method && (
            <>
              <dt>Método</dt>
              <dd>{status.method === 'efirma' ? 'e.firma' : 'Contraseña del SAT (CIEC)'}</dd>
            </>
          )}
        </dl>
        <div aria-live="polite" className="stack sat-status__live">
          {started && (
            <p className="notice notice--success" role="status">
              <Icon name="check" /> {MSG.satSyncStarted}
            </p>
          )}
          {status?.running && (
            <p className="sat-running" role="status">
              <Spinner /> {SYNC_TXT.running}
            </p>
          )}
          {result && <p className={status?.last_error ? 'notice notice--warning' : 'notice notice--info'}>{result}</p>}
          {online && error && (
            <div className="notice notice--error" role="alert">
              <p>{error}</p>
              <p>
                <Button onClick={refresh}>{TXT.retry}</Button>
              </p>
            </div>
          )}
          {disconnectError && (
            <p className="notice notice--error" role="alert">
              {disconnectError}
            </p>
          )}
        </div>
        {loading && !status && (
          <span role="status" aria-label={TXT.loading} className="sat-status__loading">
            <Skeleton width="60%" />
            <Skeleton width="40%" />
          </span>
        )}
        {connected && (
          <div>
            <Button onClick={() => setConfirming(true)} disabled={!online}>
              {SYNC_TXT.disconnect}
            </Button>
          </div>
        )}
        <p className="muted">Cada día descargamos los comprobantes (emitidos y recibidos) del día anterior y los agregamos a tus movimientos.</p>
      </section>

      {methods.includes('ciec') && (
        <CiecForm
          ctx={ctx}
          connected={connected}
          onConnected={onSaved}
          onUseEfirma={methods.includes('efirma') ? () => efirmaHeading.current?.focus() : null}
        />
      )}
      {methods.includes('efirma') && <EfirmaForm ctx={ctx} efirma={status?.efirma ?? null} onConnected={onSaved} headingRef={efirmaHeading} />}

      <ConfirmDialog
        open={confirming}
        title="Desconectar del SAT"
        confirmLabel={SYNC_TXT.disconnect}
        danger
        busy={disconnecting}
        onConfirm={() => void confirmDisconnect()}
        onCancel={() => setConfirming(false)}
      >
        <p>{MSG.satDisconnectConfirm}</p>
      </ConfirmDialog>
    </div>
  );
}

/** The screen for one account, by spec §6's gate and §5's persona física rule. */
export function SyncBody({ account }: { account: Account }) {
  switch (satSyncView(account)) {
    case 'advert':
      return <PremiumAdvert feature="SincronizacionSAT" />;
    case 'company':
      return <CompanyNotice rfc={account.rfc} />;
    case 'page':
      return <SyncPanel key={account.diverza_client_id} account={account} />;
  }
}

export function SyncPage() {
  return (
    <main id="main" className="page sat-sync">
      <div className="page__title">
        <h1>{SYNC_TXT.title}</h1>
      </div>
      <ForSelectedAccount>{(account) => <SyncBody account={account} />}</ForSelectedAccount>
    </main>
  );
}

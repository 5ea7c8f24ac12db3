// "Pendientes de envío" (DESIGN §4: nothing is dropped silently): a top-bar button while the outbox
// holds operations, the list with their state, retry and discard; and the 401 banner.
import { useNavigate } from '@tanstack/react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { db } from '../../offline/db';
import { onAuthRequired, startDrainTriggers, syncNow } from '../../offline/drain-triggers';
import { countPending, listOutbox } from '../../offline/outbox';
import { discardOp, retryOp } from '../../offline/outbox-control';
import { clearSession, getSession } from '../../offline/session';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { Icon } from '../ui/icon';
import { TicketIcon } from '../ui/ticket-icons';
import { OffCanvas } from '../ui/overlay';
import { toast } from '../ui/toast-store';
import { useOnline } from '../use-online';
import { AUTH_PAUSED_TEXT, DISCARD_CONFIRM, logoutWarning, needsUser, opStateLabel, OUTBOX_TITLE, outboxButtonLabel } from './outbox-model';
import './outbox.css';

/** Starts the page's drain triggers for as long as the signed-in layout lives. */
export function useDrainTriggers(): { authPaused: boolean } {
  const [authPaused, setAuthPaused] = useState(false);
  useEffect(() => {
    const stop = startDrainTriggers({ db, getToken: () => getSession()?.token ?? null });
    const off = onAuthRequired(() => setAuthPaused(true));
    return () => {
      off();
      stop();
    };
  }, []);
  return { authPaused };
}

/** How many operations wait to be sent (for the logout warning too). */
export function usePendingCount(): number {
  return useLiveQuery(() => countPending(db), []) ?? 0;
}

export function AuthPausedBanner() {
  const navigate = useNavigate();
  return (
    <div className="notice notice--warning outbox-banner" role="alert">
      <span>{AUTH_PAUSED_TEXT}</span>
      <Button
        variant="secondary"
        onClick={() => {
          // Only the session goes: the queued work stays on the phone and is sent after signing in.
          void clearSession().then(() => navigate({ to: '/login', replace: true }));
        }}
      >
        Iniciar sesión
      </Button>
    </div>
  );
}

export function OutboxButton({ count }: { count: number }) {
  const [open, setOpen] = useState(false);
  if (count === 0 && !open) return null;
  return (
    <>
      <button
        type="button"
        className="btn btn--ghost outbox-button"
        aria-label={outboxButtonLabel(count)}
        title={OUTBOX_TITLE}
        onClick={() => setOpen(true)}
      >
        <TicketIcon name="clock" />
        <span className="outbox-button__count" aria-hidden="true">
          {count}
        </span>
      </button>
      <OutboxPanel open={open} onClose={() => setOpen(false)} />
    </>
  );
}

function OutboxPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const online = useOnline();
  const ops = useLiveQuery(() => (open ? listOutbox(db) : Promise.resolve([])), [open]);
  const [discarding, setDiscarding] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirmDiscard() {
    if (!discarding) return;
    setBusy(true);
    try {
      const done = await discardOp(db, discarding);
      if (!done) toast.info('Ese cambio se está enviando en este momento; espera a que termine.');
    } catch (err) {
      toast.error(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
      setDiscarding(null);
    }
  }

  return (
    <>
      <OffCanvas
        open={open}
        onClose={onClose}
        title={OUTBOX_TITLE}
        footer={
          ops && ops.length > 0 ? (
            <Button variant="primary" disabled={!online} onClick={() => syncNow()}>
              <TicketIcon name="refresh" />
              Enviar ahora
            </Button>
          ) : undefined
        }
      >
        {!online && <p className="notice notice--info">Sin conexión — los enviaremos al reconectar.</p>}
        {ops && ops.length === 0 && <p className="muted">Todo está enviado.</p>}
        <ul className="outbox-list">
          {(ops ?? []).map((op) => (
            <li key={op.opId} className={needsUser(op) ? 'outbox-item outbox-item--failed' : 'outbox-item'}>
              <p className="outbox-item__label">{op.label}</p>
              <p className="outbox-item__state">
                {needsUser(op) ? <Icon name="alert" /> : <TicketIcon name={op.status === 'inflight' ? 'refresh' : 'clock'} />}
                <span>{opStateLabel(op)}</span>
              </p>
              {needsUser(op) && (
                <div className="row">
                  <Button variant="secondary" onClick={() => void retryOp(db, op.opId)}>
                    Reintentar
                  </Button>
                  <Button variant="ghost" onClick={() => setDiscarding(op.opId)}>
                    Descartar
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ul>
      </OffCanvas>
      <ConfirmDialog
        open={discarding !== null}
        title="Descartar cambio"
        confirmLabel="Descartar"
        danger
        busy={busy}
        onConfirm={() => void confirmDiscard()}
        onCancel={() => setDiscarding(null)}
      >
        <p>{DISCARD_CONFIRM}</p>
      </ConfirmDialog>
    </>
  );
}

/** Logging out wipes the device: with unsent operations, ask first (DESIGN §4). */
export function LogoutConfirm({ open, count, onConfirm, onCancel }: { open: boolean; count: number; onConfirm: () => void; onCancel: () => void }) {
  return (
    <ConfirmDialog open={open} title="Cambios sin enviar" confirmLabel="Salir" danger onConfirm={onConfirm} onCancel={onCancel}>
      <p>{logoutWarning(count)}</p>
    </ConfirmDialog>
  );
}

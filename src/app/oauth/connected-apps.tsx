// The profile's 'Aplicaciones conectadas': the apps the user authorised, each with its RFC,
// and 'Revocar' behind a confirmation. Online only: grants live on the server.
import { useCallback, useEffect, useState } from 'react';
import { displayDate } from '../../domain/dates';
import { MSG } from '../../domain/messages';
import type { OAuthGrant } from '../../domain/oauth';
import { ApiError } from '../../offline/http';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { SkeletonCard } from '../ui/skeleton';
import { toast } from '../ui/toast-store';
import { TXT } from '../strings';
import { useSession } from './use-session';
import { AppIcon } from './app-card';
import { getGrants, revokeGrant } from './oauth-api';
import './oauth.css';

type State = { kind: 'loading' } | { kind: 'ready'; grants: OAuthGrant[] } | { kind: 'error'; message: string };

export function ConnectedApps() {
  const session = useSession();
  const userId = session?.user_id ?? null;
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [confirming, setConfirming] = useState<OAuthGrant | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    (ctl: { live: boolean } = { live: true }) => {
      if (userId === null) return;
      getGrants(userId)
        .then((grants) => ctl.live && setState({ kind: 'ready', grants }))
        .catch((err: unknown) => ctl.live && setState({ kind: 'error', message: err instanceof ApiError ? err.message : MSG.generic }));
    },
    [userId],
  );
  useEffect(() => {
    const ctl = { live: true };
    load(ctl);
    return () => {
      ctl.live = false;
    };
  }, [load]);

  async function revoke() {
    if (!confirming || userId === null) return;
    setBusy(true);
    try {
      await revokeGrant(userId, confirming.id);
      toast.success(MSG.oauthRevoked);
      setState((s) => (s.kind === 'ready' ? { kind: 'ready', grants: s.grants.filter((g) => g.id !== confirming.id) } : s));
      setConfirming(null);
    } catch (err) {
      toast.error(err instanceof ApiError ? err.message : MSG.generic);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card stack connected-apps" aria-labelledby="connected-apps-title">
      <h2 id="connected-apps-title">{MSG.oauthConnectedTitle}</h2>
      {state.kind === 'loading' && <SkeletonCard label={TXT.loading} lines={2} />}
      {state.kind === 'error' && (
        <div className="notice notice--error" role="alert">
          <p>{state.message}</p>
          <Button variant="secondary" onClick={() => load()}>
            {TXT.retry}
          </Button>
        </div>
      )}
      {state.kind === 'ready' && state.grants.length === 0 && <p className="muted">{MSG.oauthConnectedEmpty}</p>}
      {state.kind === 'ready' && state.grants.length > 0 && (
        <ul className="oauth-grants">
          {state.grants.map((g) => (
            <li key={g.id} className="oauth-grant">
              <AppIcon name={g.application.name} icon={g.application.icon} size={40} />
              <div className="oauth-grant__text">
                <strong>{g.application.name}</strong>
                <span className="muted">
                  {g.rfc} · {MSG.oauthConnectedSince} <span className="tabular">{displayDate(g.created_at)}</span>
                </span>
              </div>
              <Button variant="danger" onClick={() => setConfirming(g)} aria-label={`${MSG.oauthRevoke} ${g.application.name} (${g.rfc})`}>
                {MSG.oauthRevoke}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={MSG.oauthRevokeTitle}
        confirmLabel={MSG.oauthRevoke}
        danger
        busy={busy}
        onConfirm={() => void revoke()}
        onCancel={() => setConfirming(null)}
      >
        <p>
          <strong>{confirming?.application.name}</strong> ({confirming?.rfc}): {MSG.oauthRevokeConfirm}
        </p>
      </ConfirmDialog>
    </section>
  );
}

// The profile's 'Aplicaciones conectadas': the apps the user authorised, each with its RFC,
// and 'Revocar' behind a confirmation. Online only: grants live on the server.
import { useState } from 'react';
import { displayDate } from '../../domain/dates';
import { MSG } from '../../domain/messages';
import type { OAuthGrant } from '../../domain/oauth';
import { errorMessage, problemOf, setQueryData, useApiQuery } from '../api/query';
import { Button } from '../ui/button';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { SkeletonCard } from '../ui/skeleton';
import { toast } from '../ui/toast-store';
import { TXT } from '../strings';
import { useSession } from './use-session';
import { AppIcon } from './app-card';
import { getGrants, oauthKeys, revokeGrant } from './oauth-api';
import './oauth.css';

export function ConnectedApps() {
  const session = useSession();
  const userId = session?.user_id ?? null;
  const grants = useApiQuery(oauthKeys.grants(userId), ({ signal }) => getGrants(userId ?? 0, signal), { enabled: userId !== null });
  const problem = problemOf(grants);
  const [confirming, setConfirming] = useState<OAuthGrant | null>(null);
  const [busy, setBusy] = useState(false);

  async function revoke() {
    if (!confirming || userId === null) return;
    setBusy(true);
    try {
      await revokeGrant(userId, confirming.id);
      toast.success(MSG.oauthRevoked);
      setQueryData<OAuthGrant[]>(oauthKeys.grants(userId), (old) => old?.filter((g) => g.id !== confirming.id));
      setConfirming(null);
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card stack connected-apps" aria-labelledby="connected-apps-title">
      <h2 id="connected-apps-title">{MSG.oauthConnectedTitle}</h2>
      {!problem && !grants.data && <SkeletonCard label={TXT.loading} lines={2} />}
      {problem && (
        <div className="notice notice--error" role="alert">
          <p>{errorMessage(problem)}</p>
          <Button variant="secondary" onClick={() => void grants.refetch()}>
            {TXT.retry}
          </Button>
        </div>
      )}
      {grants.data && grants.data.length === 0 && <p className="muted">{MSG.oauthConnectedEmpty}</p>}
      {grants.data && grants.data.length > 0 && (
        <ul className="oauth-grants">
          {grants.data.map((g) => (
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

// The OAuth authorisation screen (spec §2 OAuth, §4 OAuth; top-level rule 2, signed in or not):
// the app's card, then sign in if needed, choose an RFC and 'Autorizar' → the browser goes to the app's
// callback with the response params. An unknown, used or expired oauth_token shows the §8 message.
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { accountDisplayName } from '../../domain/account';
import { APP_VERSION } from '../../domain/http';
import { MSG } from '../../domain/messages';
import { ApiError } from '../../offline/http';
import { accountsQuery, errorMessage, problemOf, useApiQuery } from '../api/query';
import { QueryProblem } from '../ui/query-problem';
import { TXT } from '../strings';
import { Button } from '../ui/button';
import { Select } from '../ui/fields';
import { SkeletonCard } from '../ui/skeleton';
import { AppCard } from './app-card';
import { authorizeApplication, getOAuthApplication, oauthKeys } from './oauth-api';
import { isFollowableRedirect } from './oauth-model';
import { OAuthSignIn } from './oauth-sign-in';
import { useSession } from './use-session';
import './oauth.css';

const messageOf = (err: unknown) => errorMessage(err);
// 404 is the server's "unknown, used or expired": the §8 text, whatever the body says.
const applicationProblem = (err: unknown) => (err instanceof ApiError && err.status === 404 ? MSG.invalidPageToken : messageOf(err));

function AuthorizeForm({ token, username, onCancel }: { token: string; username: string; onCancel: () => void }) {
  const session = useSession();
  const userId = session?.user_id ?? null;
  const accounts = useApiQuery(accountsQuery.key(userId), accountsQuery.read, { enabled: userId !== null });
  const [rfc, setRfc] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);

  const accountsProblem = problemOf(accounts);
  const list = accounts.data ?? [];
  const chosen = rfc || list[0]?.rfc || '';

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!chosen) return;
    setBusy(true);
    setError(null);
    try {
      const { redirect_url } = await authorizeApplication(token, chosen);
      if (!isFollowableRedirect(redirect_url)) throw new ApiError(MSG.generic, 0);
      setLeaving(true);
      window.location.assign(redirect_url);
    } catch (err) {
      setError(messageOf(err)); // the server's own text: §8 token message or 'not your RFC'
      setBusy(false);
    }
  }

  if (leaving) {
    return (
      <p className="notice notice--info" role="status">
        {MSG.oauthRedirecting}
      </p>
    );
  }
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <p className="oauth-step muted">
        {MSG.oauthSignedInAs} <strong>{username}</strong>
      </p>
      {!accountsProblem && !accounts.data && <SkeletonCard label={TXT.loading} lines={1} />}
      {accountsProblem && <QueryProblem error={accountsProblem} message={messageOf(accountsProblem)} onRetry={() => void accounts.refetch()} />}
      {accounts.data && list.length === 0 && (
        <div className="notice notice--warning" role="alert">
          <p>{MSG.oauthNoAccounts}</p>
        </div>
      )}
      {list.length > 0 && (
        <Select
          label={MSG.oauthChooseRfc}
          name="rfc"
          value={chosen}
          onChange={(e) => setRfc(e.target.value)}
          options={list.map((a) => ({ value: a.rfc, label: `${a.rfc} — ${accountDisplayName(a)}` }))}
        />
      )}
      {error && (
        <div className="notice notice--error" role="alert">
          <p>{error}</p>
        </div>
      )}
      <div className="oauth-actions">
        <Button type="button" variant="secondary" onClick={onCancel} disabled={busy}>
          {MSG.oauthCancel}
        </Button>
        <Button type="submit" variant="primary" loading={busy} disabled={!chosen}>
          {MSG.oauthAuthorize}
        </Button>
      </div>
    </form>
  );
}

export function OAuthPage() {
  const search = useSearch({ from: '/oauth' });
  const navigate = useNavigate();
  const token = search.oauth_token;
  const app = useApiQuery(oauthKeys.application(token), ({ signal }) => getOAuthApplication(token ?? '', signal), { enabled: Boolean(token) });
  const appProblem = problemOf(app);
  const session = useSession();
  const cancel = () => void navigate({ to: '/', replace: true });

  return (
    <div className="auth">
      <a className="auth__brand" href="#/">
        <img src="/favicon.svg" alt="" width={36} height={36} />
        <span>Cuentas Claras</span>
      </a>
      <main id="main" className="auth__card auth__card--wide oauth-page">
        {token && !appProblem && !app.data && <SkeletonCard label={TXT.loading} lines={4} />}
        {(!token || appProblem) && (
          <div className="stack">
            <h1>{MSG.oauthPageTitle}</h1>
            {appProblem ? (
              <QueryProblem error={appProblem} message={applicationProblem(appProblem)} onRetry={() => void app.refetch()} />
            ) : (
              <div className="notice notice--error" role="alert">
                <p>{MSG.invalidPageToken}</p>
              </div>
            )}
            <div>
              <Button variant="secondary" onClick={cancel}>
                {MSG.oauthCancel}
              </Button>
            </div>
          </div>
        )}
        {app.data && token && (
          <div className="stack">
            <AppCard app={app.data} />
            {session ? <AuthorizeForm token={token} username={session.username} onCancel={cancel} /> : <OAuthSignIn />}
            {!session && (
              <div>
                <Button variant="ghost" onClick={cancel}>
                  {MSG.oauthCancel}
                </Button>
              </div>
            )}
          </div>
        )}
      </main>
      <footer className="auth__foot">{TXT.copyright(new Date().getFullYear(), APP_VERSION)}</footer>
    </div>
  );
}

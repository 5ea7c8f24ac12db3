// The app asking for access (spec §2 OAuth): icon (or its initial), name, description, website, and what it
// may read (profile and tax data) and may not (invoices, passwords).
import { MSG } from '../../domain/messages';
import type { OAuthApplicationView } from '../../domain/oauth';
import { Icon } from '../ui/icon';
import { appInitial, safeIconSrc } from './oauth-model';

export function AppIcon({ name, icon, size = 56 }: { name: string; icon: string; size?: number }) {
  const src = safeIconSrc(icon);
  return src ? (
    <img className="oauth-icon" src={src} alt="" width={size} height={size} />
  ) : (
    <span className="oauth-icon oauth-icon--initial" style={{ width: size, height: size }} aria-hidden="true">
      {appInitial(name)}
    </span>
  );
}

export function AppCard({ app }: { app: OAuthApplicationView }) {
  const website = /^https?:\/\//.test(app.website) ? app.website : null;
  return (
    <>
      <header className="oauth-app">
        <AppIcon name={app.name} icon={app.icon} />
        <div>
          <h1 className="oauth-app__name">{app.name}</h1>
          <p className="oauth-app__lead">{MSG.oauthLead}</p>
        </div>
      </header>
      {app.description && <p className="oauth-app__description">{app.description}</p>}
      {website && (
        <p className="oauth-app__website">
          <a href={website} target="_blank" rel="noopener noreferrer">
            {new URL(website).host} <Icon name="external" />
          </a>
        </p>
      )}
      <div className="oauth-scopes">
        <section className="oauth-scope oauth-scope--yes" aria-labelledby="oauth-may">
          <h2 id="oauth-may">{MSG.oauthMayRead}</h2>
          <ul>
            <li>
              <Icon name="check" /> {MSG.oauthMayReadProfile}
            </li>
            <li>
              <Icon name="check" /> {MSG.oauthMayReadTax}
            </li>
          </ul>
        </section>
        <section className="oauth-scope oauth-scope--no" aria-labelledby="oauth-may-not">
          <h2 id="oauth-may-not">{MSG.oauthMayNotRead}</h2>
          <ul>
            <li>
              <Icon name="close" /> {MSG.oauthMayNotInvoices}
            </li>
            <li>
              <Icon name="close" /> {MSG.oauthMayNotPasswords}
            </li>
          </ul>
        </section>
      </div>
    </>
  );
}

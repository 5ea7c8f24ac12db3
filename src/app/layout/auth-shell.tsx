// The frame of the signed-out screens: brand, one card, a footer.
import type { ReactNode } from 'react';
import { APP_VERSION } from '../../domain/http';
import { TXT } from '../strings';

export function AuthShell({ title, lead, children, after, wide }: { title: string; lead?: ReactNode; children: ReactNode; after?: ReactNode; wide?: boolean }) {
  return (
    <div className="auth">
      <a className="auth__brand" href="#/login">
        <img src="/favicon.svg" alt="" width={36} height={36} />
        <span>Cuentas Claras</span>
      </a>
      <main id="main" className={wide ? 'auth__card auth__card--wide' : 'auth__card'}>
        <h1>{title}</h1>
        {lead && <p className="auth__lead">{lead}</p>}
        {children}
      </main>
      {after}
      <footer className="auth__foot">{TXT.copyright(new Date().getFullYear(), APP_VERSION)}</footer>
    </div>
  );
}

// The frame of the anonymous form: our logo, and 'Ir al Dashboard' for whoever is signed in. Signed out,
// the front door's own buttons ('Crear cuenta gratis', 'Iniciar sesión') are the way in, said once.
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { APP_VERSION } from '../../../domain/http';
import { TXT } from '../../strings';
import './front-door.css';

export function PublicShell({ signedIn, children }: { signedIn: boolean; children: ReactNode }) {
  return (
    <div className="public">
      <header className="public__bar">
        <Link className="auth__brand" to="/">
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span>Cuentas Claras</span>
        </Link>
        {signedIn && (
          <nav className="public__nav" aria-label="Tu cuenta">
            <Link to="/">Ir al Dashboard</Link>
          </nav>
        )}
      </header>
      {children}
      <footer className="auth__foot">{TXT.copyright(new Date().getFullYear(), APP_VERSION)}</footer>
    </div>
  );
}

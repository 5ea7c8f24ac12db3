// The signed-out frame of the anonymous form: logo, 'Iniciar sesión' and 'Crear cuenta'.
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { APP_VERSION } from '../../../domain/http';
import { hasSession } from '../../../offline/session';
import { TXT } from '../../strings';

export function PublicShell({ children }: { children: ReactNode }) {
  const signedIn = hasSession();
  return (
    <div className="public">
      <header className="public__bar">
        <Link className="auth__brand" to="/">
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span>Cuentas Claras</span>
        </Link>
        <nav className="public__nav" aria-label="Tu cuenta">
          {signedIn ? (
            <Link to="/">Ir al Dashboard</Link>
          ) : (
            <>
              <Link to="/login">Iniciar sesión</Link>
              <Link to="/register" className="btn btn--secondary">
                Crear cuenta
              </Link>
            </>
          )}
        </nav>
      </header>
      {children}
      <footer className="auth__foot">{TXT.copyright(new Date().getFullYear(), APP_VERSION)}</footer>
    </div>
  );
}

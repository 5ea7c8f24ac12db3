// Ask for a password-reset link; the answer is the same whether or not the account exists.
import { Link } from '@tanstack/react-router';
import { useRef, useState, type FormEvent } from 'react';
import { MSG } from '../../domain/messages';
import { ApiError } from '../../offline/http';
import { requestPasswordReset } from '../api/endpoints';
import { Button } from '../ui/button';
import { TextField } from '../ui/fields';
import { useScreenToasts } from '../ui/use-screen-toasts';
import { useOnline } from '../use-online';
import { AuthShell } from '../layout/auth-shell';

export function ForgotPasswordPage() {
  const online = useOnline();
  const [userLogin, setUserLogin] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const ref = useRef<HTMLInputElement>(null);
  const notes = useScreenToasts();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!userLogin.trim()) {
      setError(MSG.loginEmpty);
      ref.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await requestPasswordReset(userLogin.trim());
      notes.dismissAll();
      setSent(true);
    } catch (err) {
      const message = err instanceof ApiError ? err.message : MSG.generic;
      setError(message);
      notes.error(message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthShell title="Recupera tu contraseña" lead="Escribe tu usuario o correo y te enviaremos un enlace para elegir una nueva.">
      {sent ? (
        <div className="stack">
          <div className="notice notice--info" role="status">
            <p>{MSG.resetSent}</p>
          </div>
          <Link to="/login">Volver a iniciar sesión</Link>
        </div>
      ) : (
        <form className="stack" onSubmit={onSubmit} noValidate>
          {!online && (
            <div className="notice notice--warning" role="status">
              <p>Sin conexión — conéctate a internet para pedir el enlace.</p>
            </div>
          )}
          <TextField
            label="Usuario o correo"
            name="login"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            inputRef={ref}
            value={userLogin}
            onChange={(e) => setUserLogin(e.target.value)}
            error={error}
            maxLength={254}
            required
          />
          <Button type="submit" variant="primary" block loading={busy}>
            Enviar enlace
          </Button>
          <div className="auth__links">
            <Link to="/login">Volver a iniciar sesión</Link>
          </div>
        </form>
      )}
    </AuthShell>
  );
}

// Ask for a password-reset link; the answer is the same whether or not the account exists. Its messages ask
// only for what this page has: the user name or e-mail, never the password.
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { MSG } from '../../domain/messages';
import { ApiError } from '../../offline/http';
import { requestPasswordReset } from '../api/endpoints';
import { Button } from '../ui/button';
import { TextField } from '../ui/fields';
import { useFieldProblem } from '../ui/use-field-problem';
import { useScreenToasts } from '../ui/use-screen-toasts';
import { useOnline } from '../use-online';
import { AuthShell } from '../layout/auth-shell';

export function ForgotPasswordPage() {
  const online = useOnline();
  const [userLogin, setUserLogin] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const { clear, err, reg, show } = useFieldProblem<'login'>();
  const notes = useScreenToasts();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!userLogin.trim()) {
      show({ field: 'login', message: MSG.resetLoginEmpty });
      return;
    }
    setBusy(true);
    clear();
    try {
      await requestPasswordReset(userLogin.trim());
      notes.dismissAll();
      setSent(true);
    } catch (error) {
      const message = error instanceof ApiError ? error.message : MSG.generic;
      show({ field: 'login', message });
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
            inputRef={reg('login')}
            value={userLogin}
            onChange={(e) => setUserLogin(e.target.value)}
            error={err('login')}
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

// Choose a new password from the e-mailed link (#/reset-password?token=…).
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useRef, useState, type FormEvent } from 'react';
import { MSG } from '../../domain/messages';
import { checkNewPassword, newPasswordProblem } from '../../domain/new-password';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../domain/password';
import { ApiError } from '../../offline/http';
import { confirmPasswordReset } from '../api/endpoints';
import { Button } from '../ui/button';
import { toast } from '../ui/toast-store';
import { useScreenToasts } from '../ui/use-screen-toasts';
import { AuthShell } from '../layout/auth-shell';
import { PasswordField } from '../ui/password-field';

export function ResetPasswordPage() {
  const { token } = useSearch({ from: '/reset-password' });
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<{ field: 'password' | 'confirmation'; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);
  const notes = useScreenToasts();

  if (!token) {
    return (
      <AuthShell title="Elige una nueva contraseña">
        <div className="notice notice--error" role="alert">
          <p>{MSG.resetInvalid}</p>
        </div>
        <p style={{ marginTop: 16 }}>
          <Link to="/forgot-password">Pedir un enlace nuevo</Link>
        </p>
      </AuthShell>
    );
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    let problem: typeof error = null;
    // The server's rule (length, then zxcvbn's score, fetched now); offline, the length part alone.
    const rule = await newPasswordProblem(password, []).catch(() => checkNewPassword(password));
    if (rule) problem = { field: 'password', message: rule };
    else if (password !== confirmation) problem = { field: 'confirmation', message: MSG.passwordsDiffer };
    if (problem) {
      setError(problem);
      notes.error(problem.message);
      (problem.field === 'password' ? passwordRef : confirmRef).current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await confirmPasswordReset(token!, password);
      toast.success(MSG.resetDone);
      await navigate({ to: '/login', replace: true });
    } catch (err) {
      const message = err instanceof ApiError ? err.message : MSG.generic;
      setError({ field: 'password', message });
      notes.error(message);
      setBusy(false);
    }
  }

  return (
    <AuthShell title="Elige una nueva contraseña" lead={`Usa al menos ${PASSWORD_MIN} caracteres. Mezcla palabras, números y signos para que sea difícil de adivinar.`}>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <PasswordField
          label="Nueva contraseña"
          autoComplete="new-password"
          inputRef={passwordRef}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={error?.field === 'password' ? error.message : null}
          maxLength={PASSWORD_MAX}
        />
        <PasswordField
          label="Confirma tu contraseña"
          autoComplete="new-password"
          inputRef={confirmRef}
          value={confirmation}
          onChange={(e) => setConfirmation(e.target.value)}
          onBlur={() => {
            if (confirmation && confirmation !== password) setError({ field: 'confirmation', message: MSG.passwordsDifferBlur });
          }}
          error={error?.field === 'confirmation' ? error.message : null}
          maxLength={PASSWORD_MAX}
        />
        <Button type="submit" variant="primary" block loading={busy}>
          Guardar contraseña
        </Button>
        <div className="auth__links">
          <Link to="/forgot-password">¿Tu enlace expiró? Pide uno nuevo</Link>
          <Link to="/login">Volver a iniciar sesión</Link>
        </div>
      </form>
    </AuthShell>
  );
}

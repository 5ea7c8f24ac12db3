// Login (spec §2): user or e-mail, password, remember me; the first server error as a warning toast (§8).
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useRef, useState, type FormEvent } from 'react';
import { MSG } from '../../domain/messages';
import { saveSession } from '../../offline/session';
import { ApiError } from '../../offline/http';
import { login } from '../api/endpoints';
import { safeRedirect } from '../top-level';
import { Button } from '../ui/button';
import { Checkbox } from '../ui/fields';
import { useScreenToasts } from '../ui/use-screen-toasts';
import { useOnline } from '../use-online';
import { AuthShell } from '../layout/auth-shell';
import { LoginFields } from '../ui/login-fields';
import { InstallApp } from './install-app';

export function LoginPage() {
  const search = useSearch({ from: '/login' });
  const navigate = useNavigate();
  const online = useOnline();
  const [userLogin, setUserLogin] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const loginRef = useRef<HTMLInputElement>(null);
  const notes = useScreenToasts();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!userLogin.trim() || !password) {
      setError(MSG.loginEmpty);
      notes.warning(MSG.loginEmpty);
      loginRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const session = await login(userLogin.trim(), password, remember);
      await saveSession(session, remember);
      notes.dismissAll();
      const back = safeRedirect(search.redirect);
      await navigate({ to: back ?? '/', replace: true });
    } catch (err) {
      const message = err instanceof ApiError ? err.message : MSG.generic;
      setError(message);
      notes.warning(message);
      setBusy(false);
    }
  }

  return (
    <AuthShell
      title="Inicia sesión"
      lead="Pide tus facturas y lleva tus gastos e ingresos en orden."
      after={<InstallApp />}
    >
      {!online && (
        <div className="notice notice--warning" role="status" style={{ marginBottom: 16 }}>
          <p>Sin conexión — necesitas internet para iniciar sesión. Lo que ya guardaste en tu teléfono sigue aquí.</p>
        </div>
      )}
      <form className="stack" onSubmit={onSubmit} noValidate>
        <LoginFields userLogin={userLogin} onUserLogin={setUserLogin} password={password} onPassword={setPassword} error={error} loginRef={loginRef} />
        <div className="row row--between">
          <Checkbox label="Recordarme" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
          <Link to="/forgot-password">¿Olvidaste tu contraseña?</Link>
        </div>
        <Button type="submit" variant="primary" block loading={busy}>
          Iniciar sesión
        </Button>
      </form>
      <div className="auth__links" style={{ marginTop: 16 }}>
        <span className="muted">¿Aún no tienes cuenta?</span>
        <Link to="/register" search={search.redirect ? { redirect: search.redirect } : {}}>
          Regístrate gratis
        </Link>
      </div>
    </AuthShell>
  );
}

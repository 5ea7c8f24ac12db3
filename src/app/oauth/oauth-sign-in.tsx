// Signing in on the OAuth screen itself (spec §4 OAuth: "sign in if needed"), so the app's oauth_token
// never has to survive a trip through the login route. Same fields and messages as the login screen.
import { useRef, useState, type FormEvent } from 'react';
import { MSG } from '../../domain/messages';
import { saveSession } from '../../offline/session';
import { ApiError } from '../../offline/http';
import { login } from '../api/endpoints';
import { LoginFields } from '../ui/login-fields';
import { Button } from '../ui/button';

export function OAuthSignIn() {
  const [userLogin, setUserLogin] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const loginRef = useRef<HTMLInputElement>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!userLogin.trim() || !password) {
      setError(MSG.loginEmpty);
      loginRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      // Not remembered: signing in to authorise an app keeps the device's session short.
      await saveSession(await login(userLogin.trim(), password, false), false);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : MSG.generic);
      setBusy(false);
    }
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-labelledby="oauth-sign-in">
      <p id="oauth-sign-in" className="oauth-step">
        {MSG.oauthSignInFirst}
      </p>
      <LoginFields userLogin={userLogin} onUserLogin={setUserLogin} password={password} onPassword={setPassword} error={error} loginRef={loginRef} />
      <Button type="submit" variant="primary" block loading={busy}>
        Iniciar sesión
      </Button>
    </form>
  );
}

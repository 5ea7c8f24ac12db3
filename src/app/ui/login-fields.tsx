// The two sign-in fields (user or e-mail, password), shared by the login page and the pages that sign a
// user in on the spot (join, OAuth). The one error shows under the login when it is empty, else under
// the password.
import type { RefObject } from 'react';
import { TextField } from './fields';
import { PasswordField } from './password-field';

export interface LoginFieldsProps {
  userLogin: string;
  onUserLogin: (value: string) => void;
  password: string;
  onPassword: (value: string) => void;
  error: string | null;
  loginRef?: RefObject<HTMLInputElement | null>;
}

export function LoginFields({ userLogin, onUserLogin, password, onPassword, error, loginRef }: LoginFieldsProps) {
  return (
    <>
      <TextField
        label="Usuario o correo"
        name="login"
        autoComplete="username"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        inputRef={loginRef}
        value={userLogin}
        onChange={(e) => onUserLogin(e.target.value)}
        error={error && !userLogin.trim() ? error : null}
        maxLength={254}
        required
      />
      <PasswordField
        label="Contraseña"
        name="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => onPassword(e.target.value)}
        error={error && userLogin.trim() ? error : null}
        maxLength={128}
        required
      />
    </>
  );
}

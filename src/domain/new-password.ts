// The password rule alone (spec §5 account step), for screens that set a password without a username: reset.
import { MSG } from './messages';
import { PASSWORD_MAX, PASSWORD_MIN } from './password';

export function checkNewPassword(password: string): string | null {
  if (!password) return MSG.accountEmpty;
  if (password.length < PASSWORD_MIN) return MSG.passwordShort;
  if (password.length > PASSWORD_MAX) return MSG.passwordLong;
  return null;
}

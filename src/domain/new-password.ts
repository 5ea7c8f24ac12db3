// The password rule alone (spec §5 account step), for screens that set a password without a username: reset.
import { MSG } from './messages';
import { PASSWORD_MAX, PASSWORD_MIN } from './password';
import { weakPasswordProblem } from './password-strength';

export function checkNewPassword(password: string): string | null {
  if (!password) return MSG.accountEmpty;
  if (password.length < PASSWORD_MIN) return MSG.passwordShort;
  if (password.length > PASSWORD_MAX) return MSG.passwordLong;
  return null;
}

/** The length rule, then the strength meter's (zxcvbn, loaded on first use); `userInputs` are the username and e-mail. */
export async function newPasswordProblem(password: string, userInputs: string[]): Promise<string | null> {
  return checkNewPassword(password) ?? (await weakPasswordProblem(password, userInputs));
}

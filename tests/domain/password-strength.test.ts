// The one strength rule the sign-up meter and the server share: zxcvbn's score under 2 is refused.
import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import { checkNewPassword, newPasswordProblem } from '../../src/domain/new-password';
import { isWeakScore, loadStrengthScorer, MIN_PASSWORD_SCORE, weakPasswordProblem } from '../../src/domain/password-strength';

describe('password strength rule', () => {
  it('refuses what the meter shows as Muy débil or Débil, and accepts Regular and better', async () => {
    expect(MIN_PASSWORD_SCORE).toBe(2);
    expect([0, 1, 2, 3, 4].map((s) => isWeakScore(s as 0 | 1 | 2 | 3 | 4))).toEqual([true, true, false, false, false]);
    const scoreOf = await loadStrengthScorer();
    for (const weak of ['password', '12345678', 'contraseña1', 'cuentasclaras', 'qwertyuiop']) {
      expect(isWeakScore(scoreOf(weak, [])), weak).toBe(true);
      expect(await weakPasswordProblem(weak, [])).toBe(MSG.passwordWeak);
    }
    for (const strong of ['Clave-Segura-2026!', 'contraseña-segura-1', 'una clave larga 2026']) {
      expect(await weakPasswordProblem(strong, []), strong).toBeNull();
    }
  });

  it('counts the username and e-mail against the password', async () => {
    expect(await weakPasswordProblem('mariana.quiroz88', [])).toBeNull();
    expect(await weakPasswordProblem('mariana.quiroz88', ['mariana.quiroz88', 'mariana.quiroz88@example.com'])).toBe(MSG.passwordWeak);
  });

  it('new passwords: the length rule first, then strength, with the exact Spanish message', async () => {
    expect(await newPasswordProblem('', [])).toBe(MSG.accountEmpty);
    expect(await newPasswordProblem('corta', [])).toBe(MSG.passwordShort);
    expect(await newPasswordProblem('x'.repeat(129), [])).toBe(MSG.passwordLong);
    expect(checkNewPassword('12345678')).toBeNull();
    expect(await newPasswordProblem('12345678', [])).toBe(MSG.passwordWeak);
    expect(MSG.passwordWeak).toMatch(/^Tu contraseña es muy débil/);
  });
});

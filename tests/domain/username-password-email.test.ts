import { describe, expect, it } from 'vitest';
import { normalizeUsername } from '../../src/domain/username';
import { clampScore, PASSWORD_SCORE_LABELS, strengthPercent } from '../../src/domain/password';
import { isValidEmail, normalizeEmail } from '../../src/domain/email';

describe('username normalisation (spec §5)', () => {
  it('keeps letters, digits, dot and underscore, lowercased', () => {
    expect(normalizeUsername('Juan.Pérez_2024!')).toBe('juan.prez_2024');
    expect(normalizeUsername('MARIA LOPEZ')).toBe('marialopez');
  });
  it('collapses repeated dots and underscores', () => {
    expect(normalizeUsername('a__b...c_._d')).toBe('a_b.c_._d');
    expect(normalizeUsername('x____y')).toBe('x_y');
  });
});

describe('password strength (spec §5, §2)', () => {
  it('maps scores 0..4 to 25% steps and Spanish labels', () => {
    expect([0, 1, 2, 3, 4].map((s) => strengthPercent(clampScore(s)))).toEqual([0, 25, 50, 75, 100]);
    expect(PASSWORD_SCORE_LABELS[0]).toBe('Muy débil');
    expect(PASSWORD_SCORE_LABELS[4]).toBe('Muy fuerte');
  });
  it('clamps out-of-range scores at the boundaries', () => {
    expect(clampScore(-1)).toBe(0);
    expect(clampScore(4.9)).toBe(4);
    expect(clampScore(7)).toBe(4);
  });
});

describe('e-mail', () => {
  it('lowercases and trims', () => expect(normalizeEmail('  Ana@Ejemplo.MX ')).toBe('ana@ejemplo.mx'));
  it('accepts ordinary addresses and rejects malformed ones', () => {
    expect(isValidEmail('ana.lopez+facturas@ejemplo.com.mx')).toBe(true);
    for (const e of ['', 'ana', 'ana@', '@ejemplo.mx', 'ana@ejemplo', 'ana lopez@ejemplo.mx', 'ana@@ejemplo.mx']) expect(isValidEmail(e)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { normalizeUsername, usernameLengthProblem } from '../../src/domain/username';
import { clampScore, PASSWORD_SCORE_LABELS, strengthPercent } from '../../src/domain/password';
import { isValidEmail, normalizeEmail } from '../../src/domain/email';

describe('username normalisation (spec §5)', () => {
  it('keeps letters, digits, dot and underscore, lowercased', () => {
    expect(normalizeUsername('Juan.Perez_2024!')).toBe('juan.perez_2024');
    expect(normalizeUsername('  ANA__Perez..MX!  ')).toBe('ana_perez.mx');
  });
  it('transliterates accents instead of dropping them', () => {
    expect(normalizeUsername('Lupita Gómez')).toBe('lupita.gomez');
    expect(normalizeUsername('Juan.Pérez_2024!')).toBe('juan.perez_2024');
    expect(normalizeUsername('PEÑA Núñez')).toBe('pena.nunez');
    expect(normalizeUsername('Ángel Güemes')).toBe('angel.guemes');
    expect(normalizeUsername('Straße Øre')).toBe('strasse.ore');
  });
  it('turns spaces and hyphens between words into one dot', () => {
    expect(normalizeUsername('MARIA LOPEZ')).toBe('maria.lopez');
    expect(normalizeUsername('  ana   maría-luisa ')).toBe('ana.maria.luisa');
    expect(normalizeUsername('ana - luisa')).toBe('ana.luisa');
  });
  it('drops what has no Latin letter to stand for it', () => {
    expect(normalizeUsername('用户名abc')).toBe('abc');
    expect(normalizeUsername('<script>x</script>')).toBe('scriptxscript');
    expect(normalizeUsername('a\u0000b')).toBe('ab');
  });
  it('collapses repeated dots and underscores', () => {
    expect(normalizeUsername('a__b...c_._d')).toBe('a_b.c_._d');
    expect(normalizeUsername('x____y')).toBe('x_y');
  });
  it('checks the length of the normalised name', () => {
    expect(usernameLengthProblem('abc')).toBe('short');
    expect(usernameLengthProblem('abcd')).toBeNull();
    expect(usernameLengthProblem('a'.repeat(25))).toBeNull();
    expect(usernameLengthProblem('a'.repeat(26))).toBe('long');
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

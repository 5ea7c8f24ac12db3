import { describe, expect, it } from 'vitest';
import { MSG } from '../../src/domain/messages';
import { EMPTY_REGISTER_FORM, validateStep, type RegisterForm } from '../../src/app/register/wizard';

const valid: RegisterForm = {
  username: 'ana.lopez',
  password: 'una clave larga 2026',
  passwordConfirmation: 'una clave larga 2026',
  email: 'ana@example.mx',
  emailConfirmation: 'ANA@example.mx ',
  tax: { type: 'persona', rfc: 'LOPA800101AB1', name: '', firstName: 'Ana', lastName: 'López Pérez', country: '', taxId: '', postalCode: '', taxRegime: '' },
};

describe('account step (spec §5, in order)', () => {
  it('empty details first, pointing at the first empty field', () => {
    expect(validateStep('account', EMPTY_REGISTER_FORM)).toEqual({ step: 'account', field: 'username', message: MSG.accountEmpty });
    expect(validateStep('account', { ...valid, password: '' })).toMatchObject({ field: 'password', message: MSG.accountEmpty });
  });

  it('then passwords that differ, at the confirmation', () => {
    expect(validateStep('account', { ...valid, passwordConfirmation: 'otra' })).toEqual({
      step: 'account',
      field: 'passwordConfirmation',
      message: MSG.passwordsDiffer,
    });
  });

  it('then a short username and a short password', () => {
    expect(validateStep('account', { ...valid, username: 'ab' })).toMatchObject({ field: 'username', message: MSG.usernameShort });
    expect(validateStep('account', { ...valid, password: 'corta', passwordConfirmation: 'corta' })).toMatchObject({
      field: 'password',
      message: MSG.passwordShort,
    });
  });

  it('passes a complete account', () => {
    expect(validateStep('account', valid)).toBeNull();
  });
});

describe('email step', () => {
  it('an invalid address points at the e-mail, a different confirmation at the confirmation', () => {
    expect(validateStep('email', { ...valid, email: 'ana@' })).toEqual({ step: 'email', field: 'email', message: MSG.emailInvalid });
    expect(validateStep('email', { ...valid, emailConfirmation: 'otra@example.mx' })).toMatchObject({
      field: 'emailConfirmation',
      message: MSG.emailInvalid,
    });
  });

  it('compares the confirmation case- and space-insensitively', () => {
    expect(validateStep('email', valid)).toBeNull();
  });
});

describe('tax step', () => {
  it('RFC shape first, then the missing name fields', () => {
    expect(validateStep('tax', { ...valid, tax: { ...valid.tax, rfc: 'ABC' } })).toMatchObject({ field: 'rfc', message: MSG.rfcInvalid });
    expect(validateStep('tax', { ...valid, tax: { ...valid.tax, lastName: ' ' } })).toMatchObject({ field: 'lastName', message: MSG.missingInfo });
  });

  it('a persona RFC typed in the EMPRESA tab is rejected', () => {
    expect(validateStep('tax', { ...valid, tax: { ...valid.tax, type: 'empresa', name: 'X' } })).toMatchObject({ message: MSG.rfcInvalid });
  });

  it('foreigners need name, tax id and a listed country', () => {
    const foreign = { ...valid.tax, type: 'extranjero' as const, rfc: '', name: 'Foreign Co', taxId: '123', country: '' };
    expect(validateStep('tax', { ...valid, tax: foreign })).toMatchObject({ field: 'country', message: MSG.missingInfo });
    expect(validateStep('tax', { ...valid, tax: { ...foreign, country: 'XYZ' } })).toMatchObject({ field: 'country', message: MSG.countryInvalid });
    expect(validateStep('tax', { ...valid, tax: { ...foreign, country: 'PER' } })).toBeNull();
  });
});

describe('confirmation step', () => {
  it('re-checks every step and names the first one that fails', () => {
    expect(validateStep('confirm', { ...valid, email: 'x' })).toMatchObject({ step: 'email' });
    expect(validateStep('confirm', { ...valid, username: '', email: 'x' })).toMatchObject({ step: 'account' });
    expect(validateStep('confirm', valid)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { checkAccountStep, checkEmailStep, checkTaxData, checkTaxDataUpdate } from '../../src/domain/registration';
import { MSG } from '../../src/domain/messages';

describe('registration checks, in the spec order (§5)', () => {
  it('account details must not be empty', () => {
    expect(checkAccountStep({ username: '', password: 'secreto123', confirmation: 'secreto123' })).toBe('No puedes dejar vacíos los detalles de tu cuenta.');
    expect(checkAccountStep({ username: 'ana', password: '', confirmation: '' })).toBe(MSG.accountEmpty);
  });
  it('passwords must match before the username length is checked', () => {
    expect(checkAccountStep({ username: 'a', password: 'secreto123', confirmation: 'otro' })).toBe('Las contraseñas no coinciden. Verifica para continuar.');
  });
  it('username too short after normalisation', () => {
    expect(checkAccountStep({ username: 'A..b', password: 'secreto123', confirmation: 'secreto123' })).toBe('El nombre de usuario es muy corto.');
    expect(checkAccountStep({ username: 'anaa', password: 'secreto123', confirmation: 'secreto123' })).toBeNull();
  });
  it('username and password length limits', () => {
    expect(checkAccountStep({ username: 'a'.repeat(26), password: 'secreto123' })).toBe(MSG.usernameLong);
    expect(checkAccountStep({ username: 'a'.repeat(25), password: 'secreto123' })).toBeNull();
    expect(checkAccountStep({ username: 'anaa', password: 'corta' })).toBe(MSG.passwordShort);
    expect(checkAccountStep({ username: 'anaa', password: 'x'.repeat(129) })).toBe(MSG.passwordLong);
  });
  it('e-mail valid and equal to its confirmation', () => {
    expect(checkEmailStep({ email: 'ana@ejemplo', confirmation: 'ana@ejemplo' })).toBe('No olvides ingresar una dirección de correo válida.');
    expect(checkEmailStep({ email: 'ana@ejemplo.mx', confirmation: 'otra@ejemplo.mx' })).toBe(MSG.emailInvalid);
    expect(checkEmailStep({ email: 'Ana@Ejemplo.mx', confirmation: 'ana@ejemplo.MX ' })).toBeNull();
  });
  it('RFC of the tab shape', () => {
    expect(checkTaxData({ type: 'empresa', rfc: 'XIQB891116QE4', name: 'X' })).toBe('Por favor ingresa un RFC válido.');
    expect(checkTaxData({ type: 'persona', rfc: 'EKU9003173C9', firstName: 'A', lastName: 'B' })).toBe(MSG.rfcInvalid);
  });
  it('required names per type', () => {
    const missing = 'Por favor proporciona toda la información solicitada para completar el registro.';
    expect(checkTaxData({ type: 'empresa', rfc: 'EKU9003173C9', name: '  ' })).toBe(missing);
    expect(checkTaxData({ type: 'persona', rfc: 'XIQB891116QE4', firstName: 'Berenice', lastName: '' })).toBe(missing);
    expect(checkTaxData({ type: 'extranjero', rfc: '', name: 'ACME Inc', country: 'USA' })).toBe(missing);
    expect(checkTaxData({ type: 'extranjero', rfc: '', name: 'ACME Inc', country: '', taxId: '12-345' })).toBe(missing);
  });
  it('foreign country must be a listed code', () => {
    expect(checkTaxData({ type: 'extranjero', rfc: '', name: 'ACME Inc', country: 'XYZ', taxId: '12-345' })).toBe('Por favor ingresa un código de Residencia Fiscal válido.');
    expect(checkTaxData({ type: 'extranjero', rfc: 'ignored', name: 'ACME Inc', country: 'usa', taxId: '123456789' })).toBeNull();
    // SAT's c_Pais: a US or Canadian tax id has 9 digits; a foreigner's residence is never MEX.
    expect(checkTaxData({ type: 'extranjero', rfc: '', name: 'ACME Inc', country: 'USA', taxId: '12-345' })).toBe(MSG.numRegIdTribFormat);
    expect(checkTaxData({ type: 'extranjero', rfc: '', name: 'ACME Inc', country: 'MEX', taxId: '12-345' })).toBe(MSG.countryInvalid);
    expect(checkTaxData({ type: 'extranjero', rfc: '', name: 'Sin país', country: 'ZZZ', taxId: '1' })).toBeNull();
  });
  it('valid company and person pass', () => {
    expect(checkTaxData({ type: 'empresa', rfc: 'eku9003173c9', name: 'ESCUELA KEMPER URGATE' })).toBeNull();
    expect(checkTaxData({ type: 'persona', rfc: 'XIQB891116QE4', firstName: 'Berenice', lastName: 'Ximo Quezada' })).toBeNull();
  });
});

describe('editing billing data (checkTaxDataUpdate)', () => {
  const persona = { type: 'persona' as const, rfc: 'GOML800101AB1', firstName: 'Lupita', lastName: 'Gómez', taxRegime: '612' };
  it('requires a five-digit código postal that registering may leave out', () => {
    expect(checkTaxData({ ...persona, postalCode: '' })).toBeNull();
    for (const postalCode of ['', '   ', '640', '6400A', '640000']) expect(checkTaxDataUpdate({ ...persona, postalCode })).toBe(MSG.postalCodeInvalid);
    expect(checkTaxDataUpdate({ ...persona, postalCode: '64000' })).toBeNull();
  });
  it('leaves an absent código postal as stored, and never asks one of a foreigner', () => {
    expect(checkTaxDataUpdate({ ...persona, postalCode: undefined })).toBeNull();
    expect(checkTaxDataUpdate({ type: 'extranjero', rfc: 'XEXX010101000', name: 'Acme Inc', country: 'USA', taxId: '123456789' })).toBeNull();
  });
  it('speaks of updating, not of registering, when data is missing', () => {
    expect(checkTaxDataUpdate({ ...persona, lastName: ' ', postalCode: '64000' })).toBe(MSG.missingInfoUpdate);
    expect(checkTaxDataUpdate({ ...persona, rfc: 'MAL', postalCode: '64000' })).toBe(MSG.rfcInvalid);
  });
});

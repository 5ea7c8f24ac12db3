// The join screen's logic: which step, how the host reads, and the sign-up checks before sending.
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { checkJoinSignUp, hostName, joinStep } from '../../../src/app/join/join-model';
import { addressLine } from '../../../src/app/tax-data/address-line';
import { EMPTY_TAX_DRAFT } from '../../../src/app/tax-data/tax-draft';

const host = {
  first_name: null,
  last_name: null,
  rfc: 'ABC010101AB1',
  name: 'Abarrotes SA',
  address: { street: 'Av. Juárez', external_number: '10', internal_number: '', neighborhood: '', city: 'Puebla', state: 'Puebla', country: 'MEX', zip_code: '72000' },
};

describe('join model', () => {
  it('accepts when signed in, else signs in a registered e-mail and signs up a new one (either can switch)', () => {
    expect(joinStep({ registered: true }, true)).toBe('accept');
    expect(joinStep({ registered: true }, false)).toBe('sign-in');
    expect(joinStep({ registered: false }, false)).toBe('sign-up');
    expect(joinStep({ registered: false }, false, 'sign-in')).toBe('sign-in');
  });

  it('names and places the host', () => {
    expect(hostName(host)).toBe('Abarrotes SA');
    expect(hostName({ ...host, name: null, first_name: 'Emma', last_name: 'Gómez' })).toBe('Emma Gómez');
    expect(hostName({ ...host, name: ' ' })).toBe('ABC010101AB1');
    expect(addressLine(host.address)).toBe('Av. Juárez 10, Puebla, Puebla, C.P. 72000');
    expect(addressLine({ ...host.address, street: '', external_number: '', city: '', state: '', zip_code: '' })).toBe('');
  });

  it('checks the account, then the tax data, pointing at the field', () => {
    const tax = { ...EMPTY_TAX_DRAFT, type: 'persona' as const, rfc: 'GODE561231GR8', firstName: 'Emma', lastName: 'Gómez' };
    expect(checkJoinSignUp({ username: '', password: '', confirmation: '' }, tax)).toEqual({ field: 'username', message: MSG.accountEmpty });
    expect(checkJoinSignUp({ username: 'ab', password: 'contraseña1', confirmation: 'contraseña1' }, tax)).toEqual({ field: 'username', message: MSG.usernameShort });
    expect(checkJoinSignUp({ username: 'emma', password: 'contraseña1', confirmation: 'otra' }, tax)).toEqual({ field: 'confirmation', message: MSG.passwordsDiffer });
    expect(checkJoinSignUp({ username: 'emma', password: 'corta', confirmation: 'corta' }, tax)).toEqual({ field: 'password', message: MSG.passwordShort });
    expect(checkJoinSignUp({ username: 'emma', password: 'contraseña1', confirmation: 'contraseña1' }, { ...tax, rfc: 'X' })).toEqual({ field: 'rfc', message: MSG.rfcInvalid });
    expect(checkJoinSignUp({ username: 'emma', password: 'contraseña1', confirmation: 'contraseña1' }, tax)).toBeNull();
  });
});

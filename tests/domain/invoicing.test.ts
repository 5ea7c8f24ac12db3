import { describe, expect, it } from 'vitest';
import {
  checkReceiver, checkRegimeForUso, invoiceStepLabel, isValidPostalCode, normalizeReceiver, regimesFor, satAllowsUso,
  TAX_REGIMES, USOS_CFDI, type ReceiverForm,
} from '../../src/domain/invoicing';
import { MSG } from '../../src/domain/messages';

const good: ReceiverForm = {
  rfc: 'XIQB891116QE4', rfcConfirm: 'XIQB891116QE4', foreign: false, nombre: 'BERENICE XIMO QUEZADA',
  email: 'berenice@ejemplo.mx', regime: '612', uso: 'G03', postalCode: '26015',
};

describe('receiver of an invoice request (spec §5 SAT and anonymous form)', () => {
  it('accepts a complete receiver', () => {
    expect(checkReceiver(good)).toBeNull();
  });
  it('checks in the spec order with its exact messages', () => {
    expect(checkReceiver({ ...good, rfcConfirm: 'XIQB891116QE5', email: 'x' })).toEqual({ field: 'rfcConfirm', message: 'El RFC no coincide con la confirmación del RFC.' });
    expect(checkReceiver({ ...good, rfc: 'XIQB8911', rfcConfirm: 'XIQB8911' })?.message).toBe('El RFC es inválido favor de verificar.');
    expect(checkReceiver({ ...good, email: 'no-es-correo' })?.message).toBe('Ingresar una dirección correo electrónico valida.');
    expect(checkReceiver({ ...good, regime: '605', uso: 'G03' })?.message).toBe('Para ese regimen fiscal, el único Uso de CFDI válido es S01');
  });
  it('lets any regime use S01 and refuses unknown codes', () => {
    expect(checkReceiver({ ...good, regime: '605', uso: 'S01' })).toBeNull();
    expect(checkReceiver({ ...good, regime: '999' })?.message).toBe(MSG.regimeRequired);
    expect(checkReceiver({ ...good, uso: 'P01' })?.message).toBe(MSG.usoRequired);
  });
  it('asks for the name, the postal code and, for foreigners, residence and tax id', () => {
    expect(checkReceiver({ ...good, nombre: ' ' })?.field).toBe('nombre');
    expect(checkReceiver({ ...good, postalCode: '2601' })?.message).toBe(MSG.postalCodeInvalid);
    const foreign = normalizeReceiver({ ...good, foreign: true, rfc: 'x', rfcConfirm: 'y', regime: '616', uso: 'S01' });
    expect(foreign.rfc).toBe('XEXX010101000');
    expect(checkReceiver(foreign)?.field).toBe('residenciaFiscal');
    expect(checkReceiver({ ...foreign, residenciaFiscal: 'USA' })?.field).toBe('numRegIdTrib');
    expect(checkReceiver({ ...foreign, residenciaFiscal: 'USA', numRegIdTrib: '123456789' })).toBeNull();
  });
  it('refuses the generic RFC for the public (it is not a receiver of a nominative invoice)', () => {
    expect(checkReceiver({ ...good, rfc: 'XAXX010101000', rfcConfirm: 'XAXX010101000' })?.field).toBe('rfc');
  });
  it('normalises: RFC and name uppercased, e-mail lowercased, all trimmed', () => {
    const n = normalizeReceiver({ ...good, rfc: ' xiqb891116qe4 ', rfcConfirm: 'xiqb891116qe4', email: ' B@Ejemplo.MX ', nombre: ' berenice   ximo ', regime: '6120', uso: 'g03' });
    expect(n).toMatchObject({ rfc: 'XIQB891116QE4', rfcConfirm: 'XIQB891116QE4', email: 'b@ejemplo.mx', nombre: 'BERENICE XIMO', regime: '612', uso: 'G03' });
  });
});

describe('SAT catalogs', () => {
  it('has the regimes of spec §3 and the 2022 usos (no P01)', () => {
    for (const code of ['601', '603', '605', '606', '607', '610', '611', '612', '614', '615', '616', '620', '621', '622', '623', '624', '625', '626'])
      expect(TAX_REGIMES.some((r) => r.code === code)).toBe(true);
    expect(USOS_CFDI.some((u) => u.code === 'P01')).toBe(false);
  });
  it('offers regimes by RFC kind', () => {
    expect(regimesFor('EKU9003173C9').map((r) => r.code)).toContain('601');
    expect(regimesFor('EKU9003173C9').map((r) => r.code)).not.toContain('612');
    expect(regimesFor('XIQB891116QE4').map((r) => r.code)).toContain('612');
    expect(regimesFor('XEXX010101000').map((r) => r.code)).toEqual(['616']);
  });
  it('knows the spec rule and SAT matrix apart', () => {
    // SAT's c_UsoCFDI decides: a salaried person's medical bill (605 + D01) is accepted.
    expect(checkRegimeForUso('605', 'D01')).toBeNull();
    expect(checkRegimeForUso('605', 'D01', 'XIQB891116QE4')).toBeNull();
    expect(checkRegimeForUso('605', 'G03')).toBe(MSG.regimeOnlyS01);
    expect(checkRegimeForUso('601', 'D01', 'EKU9003173C9')).toBe(MSG.invoiceRejected);
    expect(checkRegimeForUso('626', 'D01', 'EKU9003173C9')).toBe(MSG.invoiceRejected); // D01 is for personas físicas only
    expect(checkRegimeForUso('616', 'G03', 'XEXX010101000')).toBe(MSG.regimeOnlyS01);
    expect(checkRegimeForUso('616', 'S01', 'XEXX010101000')).toBeNull();
    expect(satAllowsUso('605', 'D01')).toBe(true);
    expect(satAllowsUso('601', 'D01')).toBe(false);
    expect(satAllowsUso('612', 'G03')).toBe(true);
  });
  it('the receiver form applies SAT\'s regime by person type and c_UsoCFDI', () => {
    const fisica: ReceiverForm = { rfc: 'XIQB891116QE4', rfcConfirm: 'XIQB891116QE4', foreign: false, nombre: 'BERENICE XIMO QUEZADA', email: 'b@ejemplo.mx', regime: '605', uso: 'D01', postalCode: '26015' };
    expect(checkReceiver(fisica)).toBeNull(); // 605 + D01: the commonest personal deduction
    expect(checkReceiver({ ...fisica, regime: '601', uso: 'G03' })).toEqual({ field: 'regime', message: MSG.regimeInvalid });
    const moral: ReceiverForm = { ...fisica, rfc: 'EKU9003173C9', rfcConfirm: 'EKU9003173C9', nombre: 'ESCUELA KEMPER URGATE', regime: '601', uso: 'G03' };
    expect(checkReceiver(moral)).toBeNull();
    expect(checkReceiver({ ...moral, regime: '612' })).toEqual({ field: 'regime', message: MSG.regimeInvalid });
    expect(checkReceiver({ ...moral, uso: 'D01' })).toEqual({ field: 'uso', message: MSG.invoiceRejected });
    const foreign: ReceiverForm = { ...fisica, rfc: 'XEXX010101000', rfcConfirm: 'XEXX010101000', regime: '616', uso: 'S01', residenciaFiscal: 'USA', numRegIdTrib: '123456789' };
    expect(checkReceiver(foreign)).toBeNull();
    expect(checkReceiver({ ...foreign, uso: 'G03' })).toEqual({ field: 'uso', message: MSG.regimeOnlyS01 });
    expect(checkReceiver({ ...foreign, residenciaFiscal: 'MEX' })?.field).toBe('residenciaFiscal');
    expect(checkReceiver({ ...foreign, numRegIdTrib: '12345' })).toEqual({ field: 'numRegIdTrib', message: MSG.numRegIdTribFormat });
  });
  it('checks postal codes and labels the path', () => {
    expect(isValidPostalCode('01000')).toBe(true);
    expect(isValidPostalCode('1000')).toBe(false);
    expect(isValidPostalCode('0100A')).toBe(false);
    expect(invoiceStepLabel('enviada', 'a@b.mx')).toBe('Enviada a a@b.mx');
  });
});

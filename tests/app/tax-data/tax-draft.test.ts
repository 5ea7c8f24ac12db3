import { describe, expect, it } from 'vitest';
import { EMPTY_TAX_DRAFT, toNewClientBody } from '../../../src/app/tax-data/tax-draft';

describe('new_client payload (spec §3 New client payload)', () => {
  it('a company sends rfc and name, empty address fields and no foreign data', () => {
    const body = toNewClientBody({ ...EMPTY_TAX_DRAFT, type: 'empresa', rfc: ' abc010203xy1 ', name: ' Mi Empresa SA ', firstName: 'ignored' });
    expect(body.client).toEqual({ rfc: 'ABC010203XY1', name: 'Mi Empresa SA', first_name: '', last_name: '', regimen_fiscal: '' });
    expect(body.ubication_data).toEqual({
      street: '', external_number: '', internal_number: '', neighborhood: '', city: '', state: '', country: '', zip_code: '',
      num_reg_id_trib: '', residencia_fiscal: '',
    });
  });

  it('a person sends first and last name', () => {
    const body = toNewClientBody({ ...EMPTY_TAX_DRAFT, type: 'persona', rfc: 'LOPA800101AB1', firstName: 'Ana', lastName: 'López', name: 'x' });
    expect(body.client).toEqual({ rfc: 'LOPA800101AB1', name: '', first_name: 'Ana', last_name: 'López', regimen_fiscal: '' });
  });

  it('the postal code and regime travel when given, never for a foreigner', () => {
    const body = toNewClientBody({ ...EMPTY_TAX_DRAFT, type: 'persona', rfc: 'LOPA800101AB1', firstName: 'Ana', lastName: 'López', postalCode: ' 64000 ', taxRegime: '612' });
    expect(body.client.regimen_fiscal).toBe('612');
    expect(body.ubication_data.zip_code).toBe('64000');
    const foreign = toNewClientBody({ ...EMPTY_TAX_DRAFT, type: 'extranjero', name: 'Foreign Inc', country: 'USA', taxId: '1', postalCode: '64000', taxRegime: '601' });
    expect(foreign.client.regimen_fiscal).toBe('');
    expect(foreign.ubication_data.zip_code).toBe('');
  });

  it('a foreigner always sends the generic foreign RFC plus residencia fiscal and NumRegIdTrib', () => {
    const body = toNewClientBody({ ...EMPTY_TAX_DRAFT, type: 'extranjero', rfc: 'ABC010203XY1', name: 'Foreign Inc', country: 'usa', taxId: '98-765' });
    expect(body.client.rfc).toBe('XEXX010101000');
    expect(body.ubication_data.residencia_fiscal).toBe('USA');
    expect(body.ubication_data.num_reg_id_trib).toBe('98-765');
  });
});

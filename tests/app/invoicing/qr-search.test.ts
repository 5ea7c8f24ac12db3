import { describe, expect, it } from 'vitest';
import { qrFromSearch } from '../../../src/app/invoicing/merchant-form/merchant-form-page';
import { parseSearch, stringifySearch } from '../../../src/app/search-params';

describe('merchant form: the QR query is read as typed', () => {
  it('keeps leading zeros, trailing decimals and empty check codes', () => {
    expect(qrFromSearch('?ref=0042ABCD0042ABCD&check=0012&total=1234.50')).toEqual({ ref: '0042ABCD0042ABCD', check: '0012', total: '1234.50' });
    expect(qrFromSearch('?ref=AB12CD34EF56GH78&check=&total=99.00')).toEqual({ ref: 'AB12CD34EF56GH78', check: '', total: '99.00' });
  });
  it('needs a ref and a total', () => {
    expect(qrFromSearch('?ref=AB12CD34EF56GH78')).toBeNull();
    expect(qrFromSearch('')).toBeNull();
  });
});

describe("the router's query strings", () => {
  it('reads every value as the string typed: digits, decimals, true and JSON-looking text stay text', () => {
    expect(parseSearch('?ref=1234123412341234&total=10.50&folio=0012&flag=true&q=%7B%22a%22%3A1%7D')).toEqual({
      ref: '1234123412341234',
      total: '10.50',
      folio: '0012',
      flag: 'true',
      q: '{"a":1}',
    });
    expect(parseSearch('')).toEqual({});
  });
  it('writes values unquoted and round-trips them; undefined keys are left out', () => {
    const search = { ref: '1234123412341234', check: '0012', total: '10.00', redirect: '/merchant/oma?ref=1&total=2', skip: undefined };
    const written = stringifySearch(search);
    expect(written).toBe('?ref=1234123412341234&check=0012&total=10.00&redirect=%2Fmerchant%2Foma%3Fref%3D1%26total%3D2');
    expect(parseSearch(written)).toEqual({ ref: '1234123412341234', check: '0012', total: '10.00', redirect: '/merchant/oma?ref=1&total=2' });
    expect(stringifySearch({})).toBe('');
  });
});

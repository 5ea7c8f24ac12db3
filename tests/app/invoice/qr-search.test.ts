import { describe, expect, it } from 'vitest';
import { qrFromSearch } from '../../../src/app/invoice/merchant-form/merchant-form-page';

describe('merchant form: the QR query is read as typed', () => {
  it('keeps leading zeros, trailing decimals and empty check codes', () => {
    expect(qrFromSearch('?ref=0042ABCD0042ABCD&check=0012&total=1234.50')).toEqual({ ref: '0042ABCD0042ABCD', check: '0012', total: '1234.50' });
    expect(qrFromSearch('?ref=AB12CD34EF56GH78&check=&total=99.00')).toEqual({ ref: 'AB12CD34EF56GH78', check: '', total: '99.00' });
  });
  it('unquotes values the router quoted itself, and needs a ref and a total', () => {
    expect(qrFromSearch('?ref=%221234123412341234%22&check=%220012%22&total=%2210.00%22')).toEqual({ ref: '1234123412341234', check: '0012', total: '10.00' });
    expect(qrFromSearch('?ref=AB12CD34EF56GH78')).toBeNull();
    expect(qrFromSearch('')).toBeNull();
  });
});

// Merchant names as each brand writes them; the short names stay, since tickets and logos are keyed by them.
import { describe, expect, it } from 'vitest';
import { merchantByShortName, merchantsIn } from '../../src/domain/merchants';

describe('merchant names', () => {
  it('the hotel picker spells Crowne Plaza as the brand does, under the short names tickets already use', () => {
    expect(merchantByShortName('crown-plaza-monterrey')?.name).toBe('Crowne Plaza Monterrey');
    expect(merchantByShortName('crown-plaza-torreon')?.name).toBe('Crowne Plaza Torreón');
    expect(merchantsIn('mil').map((m) => m.name).filter((n) => /crown /i.test(n))).toEqual([]);
  });
});

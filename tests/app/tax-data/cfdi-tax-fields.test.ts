// The régimen list follows the tab (or account) type: personas físicas see only theirs, morales only theirs.
import { describe, expect, it } from 'vitest';
import { regimeOptions } from '../../../src/app/tax-data/cfdi-tax-fields';
import { TAX_REGIMES } from '../../../src/domain/invoicing';

const codes = (o: { value: string }[]) => o.map((x) => x.value);

describe('régimen options', () => {
  it('the PERSONA tab lists only personas físicas regimes, whatever the RFC typed so far', () => {
    const persona = codes(regimeOptions('persona', ''));
    expect(persona).toContain('612');
    expect(persona).toContain('626');
    expect(persona).not.toContain('601');
    expect(persona.every((c) => TAX_REGIMES.find((r) => r.code === c)?.fisica)).toBe(true);
    expect(codes(regimeOptions('persona', 'ABC010101AB1'))).toEqual(persona);
  });
  it('the EMPRESA tab lists only personas morales regimes', () => {
    const empresa = codes(regimeOptions('empresa', ''));
    expect(empresa).toContain('601');
    expect(empresa).not.toContain('612');
  });
  it('without a type, the RFC length decides, and both lists until it can', () => {
    expect(codes(regimeOptions(undefined, 'GOML800101AB1'))).toEqual(codes(regimeOptions('persona', '')));
    expect(codes(regimeOptions(undefined, 'ABC010101AB1'))).toEqual(codes(regimeOptions('empresa', '')));
    const both = codes(regimeOptions(undefined, 'AB'));
    expect(both).toContain('601');
    expect(both).toContain('612');
    expect(new Set(both).size).toBe(both.length);
  });
});

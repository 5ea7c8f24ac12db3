// The engine runs on every imported file: hostile or odd input gets findings or nothing, never an
// exception, and a large CFDI costs time in proportion to its size.
import { describe, expect, it } from 'vitest';
import { checkCfdi40 } from '../../../../src/server/cfdi/rules';
import { fixture, mutate } from './mutate';

const now = new Date('2025-03-01T00:00:00Z');
const EKU = fixture('cfdi40-ingreso-eku-descuento-stamped.xml');

describe('checkCfdi40 on hostile input', () => {
  it.each([
    ['empty', ''],
    ['not XML', 'hola'],
    ['a DOCTYPE with entities', '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "xx">]><a>&x;</a>'],
    ['an entity expansion inside a CFDI', EKU.replace('<cfdi:Emisor', '<!DOCTYPE cfdi:Comprobante [<!ENTITY e "x">]><cfdi:Emisor')],
    ['too deep', `${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}`],
    ['a CFDI 3.3', fixture('cfdi33-ingreso-multiples-tasas-stamped.xml')],
    ['Retenciones 2.0', fixture('retenciones20-stamped.xml')],
    ['malformed', fixture('invalid-cfdi40-malformed-random-values.xml')],
  ])('%s: no findings, no exception', (_name, xml) => {
    expect(checkCfdi40(xml, { now })).toEqual([]);
  });

  it('bytes that are not UTF-8, and an oversized document, get no findings', () => {
    expect(checkCfdi40(new Uint8Array([0xff, 0xfe, 0x00, 0x3c, 0xc3]), { now })).toEqual([]);
    expect(checkCfdi40(`<a>${'x'.repeat(20_000_001)}</a>`, { now })).toEqual([]);
  });

  it('a CFDI 4.0 stripped of everything, or with absurd values, gets findings and no exception', () => {
    const bare = '<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0"/>';
    expect(checkCfdi40(bare, { now }).length).toBeGreaterThan(0);
    const absurd = mutate(EKU, (d) => {
      d.set(d.root, { Total: '9'.repeat(59), SubTotal: '-.', Descuento: '1e400', TipoCambio: 'NaN', Fecha: '', Moneda: '__proto__' });
      d.set('Concepto', { Cantidad: '0.' + '0'.repeat(200) + '1', ValorUnitario: '9'.repeat(40), Importe: 'x' });
      d.set(d.el('Traslado', 0), { TasaOCuota: 'constructor', Base: '' });
    });
    const findings = checkCfdi40(absurd, { now });
    expect(findings.map((f) => f.code)).toEqual(expect.arrayContaining(['CFDI40101', 'CFDI40113']));
    for (const f of findings) expect(f.message).toMatch(/\S/);
  });

  it('findings are one per code, in code order, each with a Spanish explanation', () => {
    const xml = mutate(EKU, (d) => {
      d.set('Receptor', { RegimenFiscalReceptor: '612', UsoCFDI: 'D01' });
      d.duplicate('Concepto').set(d.el('Concepto', 0), { ClaveUnidad: 'NOPE' }).set(d.el('Concepto', 1), { ClaveUnidad: 'NADA' });
    });
    const codes = checkCfdi40(xml, { now }).map((f) => f.code);
    expect(codes).toEqual([...new Set(codes)].sort());
    expect(codes).toEqual(expect.arrayContaining(['CFDI40158', 'CFDI40161', 'CFDI40165']));
  });

  it('a CFDI with 4,000 conceptos is checked whole, in about the time of 4 × 1,000', () => {
    const many = (n: number) => mutate(EKU, (d) => {
      const c = d.el('Concepto');
      for (let i = 1; i < n; i++) c.parentNode!.appendChild(c.cloneNode(true));
    });
    const small = many(1000);
    const big = many(4000);
    const time = (xml: string) => {
      const start = performance.now();
      const codes = checkCfdi40(xml, { now, skipSeal: true }).map((f) => f.code);
      return { ms: performance.now() - start, codes };
    };
    time(small);
    const a = Math.min(time(small).ms, time(small).ms);
    const b = time(big);
    // SubTotal and the taxes no longer add up (the conceptos were copied): the sums ran over all of them.
    expect(b.codes).toEqual(expect.arrayContaining(['CFDI40108', 'CFDI40215', 'CFDI40221']));
    // Linear, with room for a busy machine; a quadratic pass would take about 16 times as long.
    expect(b.ms).toBeLessThan(a * 10 + 50);
  });
});

// The Comprobante's Impuestos summary (CFDI40201–CFDI40221): absent for T and P; its totals equal
// the sum of its lines; each line is the rounded sum of the conceptos' lines with the same tax,
// factor and rate; one line per tax (retenciones) or per tax, factor and rate (traslados); amounts
// with no more decimals than the currency has; rates from c_TasaOCuota.
import type { Element } from '@xmldom/xmldom';
import { IMPUESTOS } from './catalogs';
import type { RuleContext, RuleModule } from './context';
import { add, cmp, dec, decimalsOf, round, ZERO, type Dec } from './dec';
import { tasaAllowed } from './conceptos';
import { attr } from './model';

const IMPUESTO = new Map(IMPUESTOS.map((i) => [i.code, i]));

/** The key a comprobante-level line sums over: tax, factor and rate (the rate compared as a number). */
function keyOf(el: Element, withRate: boolean): string {
  const tasa = dec(attr(el, 'TasaOCuota'));
  const rate = tasa ? round(tasa, 6).u.toString() : (attr(el, 'TasaOCuota') ?? '');
  return withRate ? `${attr(el, 'Impuesto') ?? ''}|${attr(el, 'TipoFactor') ?? ''}|${rate}` : (attr(el, 'Impuesto') ?? '');
}

function addTo(map: Map<string, Dec | null>, key: string, value: string | undefined): void {
  if (value === undefined) return;
  const prev = map.has(key) ? map.get(key)! : ZERO;
  const d = dec(value);
  map.set(key, prev && d ? add(prev, d) : null);
}

function check(ctx: RuleContext): void {
  const { m, tipo, report, decimals } = ctx;
  const imp = m.impuestos;
  if (imp && (tipo === 'T' || tipo === 'P')) report('CFDI40201');

  // What the conceptos add up to, per tax line.
  const conceptTraslados = m.conceptos.flatMap((c) => c.impuestos?.traslados ?? []);
  const conceptRetenciones = m.conceptos.flatMap((c) => c.impuestos?.retenciones ?? []);
  const onlyExento = conceptTraslados.length > 0 && conceptTraslados.every((t) => attr(t, 'TipoFactor') === 'Exento');
  const anyTaxed = conceptTraslados.some((t) => attr(t, 'TipoFactor') !== 'Exento');
  const baseByKey = new Map<string, Dec | null>();
  const importeByKey = new Map<string, Dec | null>();
  for (const t of conceptTraslados) {
    addTo(baseByKey, keyOf(t, true), attr(t, 'Base'));
    addTo(importeByKey, keyOf(t, true), attr(t, 'Importe'));
  }
  const retenidoByTax = new Map<string, Dec | null>();
  for (const r of conceptRetenciones) addTo(retenidoByTax, keyOf(r, false), attr(r, 'Importe'));

  const totalRet = attr(imp?.node, 'TotalImpuestosRetenidos');
  const totalTras = attr(imp?.node, 'TotalImpuestosTrasladados');
  const tooMany = (v: string | undefined) => v !== undefined && decimals !== undefined && decimalsOf(v) > decimals;
  if (anyTaxed && tipo !== 'T' && tipo !== 'P' && totalTras === undefined) report('CFDI40212');
  if (!imp) return;

  if (tooMany(totalRet)) report('CFDI40202');
  if (totalRet !== undefined) {
    let sum: Dec | null = ZERO;
    for (const r of imp.retenciones) {
      const d = dec(attr(r, 'Importe'));
      sum = sum && d ? add(sum, d) : null;
    }
    const t = dec(totalRet);
    if (sum && t && cmp(sum, t) !== 0) report('CFDI40203');
  }
  if (tooMany(totalTras)) report('CFDI40204');
  if (totalTras !== undefined) {
    let sum: Dec | null = ZERO;
    for (const tr of imp.traslados) {
      const v = attr(tr, 'Importe');
      if (v === undefined) continue;
      const d = dec(v);
      sum = sum && d ? add(sum, d) : null;
    }
    const t = dec(totalTras);
    if (sum && t && cmp(sum, t) !== 0) report('CFDI40205');
  }

  if (imp.retencionesNode && totalRet === undefined) report('CFDI40206');
  const seenTax = new Set<string>();
  for (const r of imp.retenciones) {
    const tax = attr(r, 'Impuesto') ?? '';
    if (!IMPUESTO.get(tax)?.retencion) report('CFDI40207');
    if (seenTax.has(tax)) report('CFDI40208');
    seenTax.add(tax);
    const importe = attr(r, 'Importe');
    if (importe !== undefined && totalRet === undefined) report('CFDI40209');
    if (tooMany(importe)) report('CFDI40210');
    const expected = retenidoByTax.get(tax);
    const d = dec(importe);
    if (d && decimals !== undefined && expected !== null && cmp(round(expected ?? ZERO, decimals), d) !== 0) report('CFDI40211');
  }

  if (imp.trasladosNode && anyTaxed && totalTras === undefined) report('CFDI40212');
  const seenLine = new Set<string>();
  let baseSum: Dec | null = ZERO;
  for (const t of imp.traslados) {
    const factor = attr(t, 'TipoFactor') ?? '';
    if (onlyExento && (attr(t, 'TasaOCuota') !== undefined || attr(t, 'Importe') !== undefined || attr(t, 'Base') === undefined || factor !== 'Exento')) report('CFDI40213');
    const base = attr(t, 'Base');
    if (tooMany(base)) report('CFDI40214');
    const key = keyOf(t, true);
    const expectedBase = baseByKey.get(key);
    const b = dec(base);
    baseSum = baseSum && b ? add(baseSum, b) : null;
    if (!onlyExento && b && decimals !== undefined && expectedBase !== null && cmp(round(expectedBase ?? ZERO, decimals), b) !== 0) report('CFDI40215');
    const tax = attr(t, 'Impuesto') ?? '';
    if (!IMPUESTO.get(tax)?.traslado) report('CFDI40217');
    if (seenLine.has(key)) report('CFDI40218');
    seenLine.add(key);
    const tasa = attr(t, 'TasaOCuota');
    if (factor !== 'Exento' && (tasa === undefined || !tasaAllowed(tax, factor, tasa, true))) report('CFDI40219');
    const importe = attr(t, 'Importe');
    if (tooMany(importe)) report('CFDI40220');
    const expectedImporte = importeByKey.get(key);
    const i = dec(importe);
    if (i && decimals !== undefined && expectedImporte !== null && cmp(round(expectedImporte ?? ZERO, decimals), i) !== 0) report('CFDI40221');
  }
  if (onlyExento && baseSum && decimals !== undefined) {
    let conceptBases: Dec | null = ZERO;
    for (const t of conceptTraslados) {
      const d = dec(attr(t, 'Base'));
      conceptBases = conceptBases && d ? add(conceptBases, d) : null;
    }
    if (conceptBases && cmp(round(conceptBases, decimals), baseSum) !== 0) report('CFDI40216');
  }
}

export const impuestosRules: RuleModule = {
  codes: [
    'CFDI40201', 'CFDI40202', 'CFDI40203', 'CFDI40204', 'CFDI40205', 'CFDI40206', 'CFDI40207', 'CFDI40208',
    'CFDI40209', 'CFDI40210', 'CFDI40211', 'CFDI40212', 'CFDI40213', 'CFDI40214', 'CFDI40215', 'CFDI40216',
    'CFDI40217', 'CFDI40218', 'CFDI40219', 'CFDI40220', 'CFDI40221',
  ],
  check,
};

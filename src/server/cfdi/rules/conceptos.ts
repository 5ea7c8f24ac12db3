// Conceptos (CFDI40162–CFDI40200): product and unit keys, unit values, Anexo 20's limits on each
// Importe (the exact product of Cantidad and ValorUnitario widened by half a unit of each's last
// decimal, truncated below and rounded up above), discounts, ObjetoImp against the concept's taxes,
// each tax line (catalogs, c_TasaOCuota by tax and factor, Importe within Base × TasaOCuota's
// limits), third parties, customs numbers and Partes.
import type { Element } from '@xmldom/xmldom';
import { SAT_REGIMENES } from '../../../domain/sat-catalogs';
import { CLAVE_UNIDAD, IMPUESTOS, OBJETO_IMP, TASA_O_CUOTA, TIPO_FACTOR } from './catalogs';
import type { RuleContext, RuleModule } from './context';
import { add, cmp, dec, decimalsOf, halfUnit, mul, round, sign, sub, type Dec } from './dec';
import type { Concepto } from './model';
import { attr } from './model';

/** UNSPSC segments (the first two digits) c_ClaveProdServ draws from, plus 01 for 01010101 'No existe en el catálogo'. */
const CLAVE_PROD_SERV_SEGMENTS = new Set([
  '10', '11', '12', '13', '14', '15', '20', '21', '22', '23', '24', '25', '26', '27', '30', '31', '32', '39', '40', '41',
  '42', '43', '44', '45', '46', '47', '48', '49', '50', '51', '52', '53', '54', '55', '56', '60', '64', '70', '71', '72',
  '73', '76', '77', '78', '80', '81', '82', '83', '84', '85', '86', '90', '91', '92', '93', '94', '95',
]);

/** c_ClaveProdServ as far as it can be told offline: 8 digits in a UNSPSC segment, not ending a level with a zero class code. */
export function isClaveProdServ(v: string): boolean {
  if (v === '01010101') return true;
  return /^[0-9]{8}$/.test(v) && CLAVE_PROD_SERV_SEGMENTS.has(v.slice(0, 2)) && v.slice(2, 4) !== '00';
}

/** SAT's NumeroPedimento: year (2), customs office (2), agent's patent (4), number (7), two spaces between. */
const PEDIMENTO = /^[0-9]{2} {2}[0-9]{2} {2}[0-9]{4} {2}[0-9]{7}$/;

const RFC_TERCERO_EXTRANJERO = 'EXT990101NI1';
const NOMBRE_TERCERO_EXTRANJERO = 'EXPEDICIÓN DE CFDI POR RESIDENTES EN MÉXICO QUE PRESTAN SERVICIOS DE INTERMEDIACIÓN ENTRE TERCEROS A OFERENTES DE BIENES Y SERVICIOS RESIDENTES EN EL EXTRANJERO';

const REGIMEN_CODES = new Set(SAT_REGIMENES.map((r) => r.code));
const IMPUESTO = new Map(IMPUESTOS.map((i) => [i.code, i]));

/**
 * Anexo 20's limits of a product a × b written with `decimals` decimals: the product of each value
 * widened by half a unit of its last written decimal, truncated (below) or rounded up (above).
 */
export function productWithin(a: string, b: string, importe: string, ownDecimals?: number): boolean | null {
  const x = dec(a);
  const y = dec(b);
  const z = dec(importe);
  if (!x || !y || !z) return null;
  const d = ownDecimals ?? decimalsOf(importe);
  const hx = halfUnit(decimalsOf(a));
  const hy = halfUnit(decimalsOf(b));
  const low = round(mul(sub(x, hx), sub(y, hy)), d, 'floor');
  const high = round(mul(add(x, hx), add(y, hy)), d, 'ceil');
  return cmp(z, low) >= 0 && cmp(z, high) <= 0;
}

/** Importe of a tax line: (Base ∓ half a unit of its last decimal) × TasaOCuota, truncated / rounded up. */
export function taxWithin(base: string, tasa: string, importe: string): boolean | null {
  const b = dec(base);
  const t = dec(tasa);
  const z = dec(importe);
  if (!b || !t || !z) return null;
  const d = decimalsOf(importe);
  const h = halfUnit(decimalsOf(base));
  const low = round(mul(sub(b, h), t), d, 'floor');
  const high = round(mul(add(b, h), t), d, 'ceil');
  return cmp(z, low) >= 0 && cmp(z, high) <= 0;
}

/** c_TasaOCuota allows this value for the tax, factor and direction (traslado or retención). */
export function tasaAllowed(impuesto: string, factor: string, tasa: string, traslado: boolean): boolean {
  const v = dec(tasa);
  if (!v) return false;
  for (const rule of TASA_O_CUOTA) {
    if (rule.impuesto !== impuesto || rule.factor !== factor || (traslado ? !rule.traslado : !rule.retencion)) continue;
    const top = dec(rule.value)!;
    if (rule.rango) {
      if (cmp(v, dec(rule.min)!) >= 0 && cmp(v, top) <= 0) return true;
    } else if (cmp(v, top) === 0) {
      return true;
    }
  }
  return false;
}

function positive(v: string | undefined): boolean {
  const d = dec(v);
  return d !== null && sign(d) > 0;
}

function checkTraslado(t: Element, report: RuleContext['report']): void {
  const base = attr(t, 'Base');
  if (base !== undefined && dec(base) && !positive(base)) report('CFDI40174');
  const impuesto = attr(t, 'Impuesto') ?? '';
  if (!IMPUESTO.get(impuesto)?.traslado) report('CFDI40175');
  const factor = attr(t, 'TipoFactor') ?? '';
  if (!TIPO_FACTOR.has(factor)) report('CFDI40176');
  const tasa = attr(t, 'TasaOCuota');
  const importe = attr(t, 'Importe');
  if (factor === 'Exento' && (tasa !== undefined || importe !== undefined)) report('CFDI40177');
  if ((factor === 'Tasa' || factor === 'Cuota') && (tasa === undefined || importe === undefined)) report('CFDI40178');
  if (factor !== 'Exento' && tasa !== undefined && !tasaAllowed(impuesto, factor, tasa, true)) report('CFDI40179');
  if (base !== undefined && tasa !== undefined && importe !== undefined && taxWithin(base, tasa, importe) === false) report('CFDI40180');
}

function checkRetencion(r: Element, report: RuleContext['report']): void {
  const base = attr(r, 'Base');
  if (base !== undefined && dec(base) && !positive(base)) report('CFDI40181');
  const impuesto = attr(r, 'Impuesto') ?? '';
  if (!IMPUESTO.get(impuesto)?.retencion) report('CFDI40182');
  const factor = attr(r, 'TipoFactor') ?? '';
  if (!TIPO_FACTOR.has(factor)) report('CFDI40183');
  if (factor === 'Exento') report('CFDI40184');
  const tasa = attr(r, 'TasaOCuota');
  const importe = attr(r, 'Importe');
  if (factor !== 'Exento' && tasa !== undefined && !tasaAllowed(impuesto, factor, tasa, false)) report('CFDI40185');
  if (base !== undefined && tasa !== undefined && importe !== undefined && taxWithin(base, tasa, importe) === false) report('CFDI40186');
}

function checkConcepto(c: Concepto, ctx: RuleContext, rfcs: { emisor: string; receptor: string; lugar: string }): void {
  const { tipo, report, m } = ctx;
  const el = c.el;
  if (!isClaveProdServ(attr(el, 'ClaveProdServ') ?? '')) report('CFDI40162');
  if (!CLAVE_UNIDAD.has(attr(el, 'ClaveUnidad') ?? '')) report('CFDI40165');
  const valorUnitario = attr(el, 'ValorUnitario');
  if ((tipo === 'I' || tipo === 'E' || tipo === 'N') && dec(valorUnitario) && !positive(valorUnitario)) report('CFDI40166');
  const cantidad = attr(el, 'Cantidad');
  const importe = attr(el, 'Importe');
  if (cantidad !== undefined && valorUnitario !== undefined && importe !== undefined && productWithin(cantidad, valorUnitario, importe) === false) report('CFDI40167');
  const descuento = attr(el, 'Descuento');
  if (descuento !== undefined && importe !== undefined) {
    if (decimalsOf(descuento) > decimalsOf(importe)) report('CFDI40168');
    const d: Dec | null = dec(descuento);
    const i = dec(importe);
    if (d && i && cmp(d, i) > 0) report('CFDI40169');
  }
  const objeto = attr(el, 'ObjetoImp') ?? '';
  if (!OBJETO_IMP.has(objeto)) report('CFDI40170');
  if (objeto === '02' && !c.impuestos) report('CFDI40171');
  if (['01', '03', '04', '05'].includes(objeto) && c.impuestos) report('CFDI40172');
  if (c.impuestos && c.impuestos.traslados.length === 0 && c.impuestos.retenciones.length === 0) report('CFDI40173');
  for (const t of c.impuestos?.traslados ?? []) checkTraslado(t, report);
  for (const r of c.impuestos?.retenciones ?? []) checkRetencion(r, report);

  if (c.terceros) {
    const rfc = attr(c.terceros, 'RfcACuentaTerceros') ?? '';
    if (rfc === rfcs.emisor || rfc === rfcs.receptor) report('CFDI40188');
    if (rfc === RFC_TERCERO_EXTRANJERO) {
      if ((attr(c.terceros, 'NombreACuentaTerceros') ?? '') !== NOMBRE_TERCERO_EXTRANJERO) report('CFDI40189');
      if ((attr(c.terceros, 'DomicilioFiscalACuentaTerceros') ?? '') !== rfcs.lugar) report('CFDI40193');
    }
    if (!REGIMEN_CODES.has(attr(c.terceros, 'RegimenFiscalACuentaTerceros') ?? '')) report('CFDI40191');
  }
  for (const a of c.aduana) {
    if (!PEDIMENTO.test(attr(a, 'NumeroPedimento') ?? '')) report('CFDI40194');
    if (m.hasCce) report('CFDI40195');
  }
  for (const p of c.partes) {
    if (!isClaveProdServ(attr(p.el, 'ClaveProdServ') ?? '')) report('CFDI40196');
    const vu = attr(p.el, 'ValorUnitario');
    if (vu !== undefined && dec(vu) && !positive(vu)) report('CFDI40197');
    const pc = attr(p.el, 'Cantidad');
    const pi = attr(p.el, 'Importe');
    if (pc !== undefined && vu !== undefined && pi !== undefined && productWithin(pc, vu, pi) === false) report('CFDI40198');
    for (const a of p.aduana) {
      if (!PEDIMENTO.test(attr(a, 'NumeroPedimento') ?? '')) report('CFDI40199');
      if (m.hasCce) report('CFDI40200');
    }
  }
}

function check(ctx: RuleContext): void {
  const rfcs = {
    emisor: attr(ctx.m.emisor, 'Rfc') ?? '',
    receptor: attr(ctx.m.receptor, 'Rfc') ?? '',
    lugar: attr(ctx.m.root, 'LugarExpedicion') ?? '',
  };
  for (const c of ctx.m.conceptos) checkConcepto(c, ctx, rfcs);
}

export const conceptosRules: RuleModule = {
  codes: [
    'CFDI40162', 'CFDI40165', 'CFDI40166', 'CFDI40167', 'CFDI40168', 'CFDI40169', 'CFDI40170', 'CFDI40171',
    'CFDI40172', 'CFDI40173', 'CFDI40174', 'CFDI40175', 'CFDI40176', 'CFDI40177', 'CFDI40178', 'CFDI40179',
    'CFDI40180', 'CFDI40181', 'CFDI40182', 'CFDI40183', 'CFDI40184', 'CFDI40185', 'CFDI40186', 'CFDI40188',
    'CFDI40189', 'CFDI40191', 'CFDI40193', 'CFDI40194', 'CFDI40195', 'CFDI40196', 'CFDI40197', 'CFDI40198',
    'CFDI40199', 'CFDI40200',
  ],
  check,
};

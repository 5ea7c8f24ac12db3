// The Comprobante's own attributes (CFDI40101–CFDI40127, CFDI40222): Fecha at the place of issue,
// payment form and method by type, amounts and their decimals, currency and exchange rate, the
// Total's arithmetic (Anexo 20: SubTotal − Descuento + trasladados − retenidos, plus local taxes),
// the catalog values and Comercio Exterior by Exportacion.
import { instantOfCfdiFecha, isMexicanPostalCode } from '../../../domain/cfdi-time-zone';
import { EXPORTACION, FORMA_PAGO, METODO_PAGO, MONEDA_DECIMALS, TIPO_COMPROBANTE_MAX } from './catalogs';
import type { RuleContext, RuleModule } from './context';
import { add, cmp, dec, decimalsOf, round, sign, sub, ZERO, type Dec } from './dec';
import { attr } from './model';

const FECHA = /^(20[1-9][0-9])-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T(([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9])$/;
const TIPO_CAMBIO = /^[0-9]{1,18}(\.[0-9]{1,6})?$/;
/** Clock difference a PAC tolerates between the issuer's clock and its own (a Fecha "in the future" by less is accepted). */
export const FECHA_FUTURE_TOLERANCE_MS = 5 * 60_000;
/** A PAC refuses to stamp a CFDI whose Fecha is more than 72 h old (PAC error 401). */
export const FECHA_MAX_AGE_MS = 72 * 3_600_000;

/** Sum of the given attribute over elements, or null when one of them is not a decimal. */
export function sumOf(els: readonly { getAttributeNode(n: string): { value: string } | null }[], name: string): Dec | null {
  let total = ZERO;
  for (const el of els) {
    const node = el.getAttributeNode(name);
    if (!node) continue;
    const d = dec(node.value);
    if (!d) return null;
    total = add(total, d);
  }
  return total;
}

function tooManyDecimals(value: string | undefined, decimals: number | undefined): boolean {
  return value !== undefined && decimals !== undefined && decimalsOf(value) > decimals;
}

function check(ctx: RuleContext): void {
  const { m, tipo, report } = ctx;
  const root = m.root;
  const lugar = attr(root, 'LugarExpedicion') ?? '';

  // CFDI40101: SAT's pattern, and a local time at LugarExpedicion that is neither in the future nor
  // (about to be stamped) older than a PAC accepts.
  const fecha = attr(root, 'Fecha') ?? '';
  if (!FECHA.test(fecha)) report('CFDI40101');
  else {
    const at = instantOfCfdiFecha(fecha, lugar).getTime();
    const now = ctx.now.getTime();
    if (at > now + FECHA_FUTURE_TOLERANCE_MS) {
      report('CFDI40101', 'La Fecha del CFDI es posterior a la hora local del lugar de expedición (su código postal): está en el futuro.');
    } else if (ctx.beforeStamping && now - at > FECHA_MAX_AGE_MS) {
      report('CFDI40101', 'La Fecha del CFDI tiene más de 72 horas: un PAC ya no lo timbra. Genera el CFDI de nuevo con la fecha actual.');
    }
  }

  const formaPago = attr(root, 'FormaPago');
  const metodoPago = attr(root, 'MetodoPago');
  if (formaPago !== undefined && (tipo === 'T' || tipo === 'N' || tipo === 'P')) report('CFDI40103');
  if (formaPago !== undefined && !FORMA_PAGO.has(formaPago)) report('CFDI40104');
  if (metodoPago === 'PPD' && formaPago !== undefined && formaPago !== '99') report('CFDI40105');

  const moneda = attr(root, 'Moneda') ?? '';
  const decimals = ctx.decimals;
  const subTotalS = attr(root, 'SubTotal');
  const descuentoS = attr(root, 'Descuento');
  const subTotal = dec(subTotalS);
  const descuento = dec(descuentoS);
  const total = dec(attr(root, 'Total'));

  if (tooManyDecimals(subTotalS, decimals)) report('CFDI40107');
  if (subTotal && decimals !== undefined) {
    if (tipo === 'I' || tipo === 'E' || tipo === 'N') {
      const sum = sumOf(m.conceptos.map((c) => c.el), 'Importe');
      if (sum && cmp(round(sum, decimals), subTotal) !== 0) report('CFDI40108');
    }
  }
  if (subTotal && (tipo === 'T' || tipo === 'P') && sign(subTotal) !== 0) report('CFDI40109');
  if (subTotal && descuento && cmp(descuento, subTotal) > 0) report('CFDI40110');

  // CFDI40111: Descuento is the rounded sum of the conceptos' (I, E, N); absent otherwise.
  const withDiscount = m.conceptos.filter((c) => attr(c.el, 'Descuento') !== undefined).map((c) => c.el);
  if (tipo === 'I' || tipo === 'E' || tipo === 'N') {
    if (withDiscount.length > 0) {
      const sum = sumOf(withDiscount, 'Descuento');
      if (!descuento) report('CFDI40111');
      else if (sum && decimals !== undefined && cmp(round(sum, decimals), descuento) !== 0) report('CFDI40111');
    } else if (descuento && sign(descuento) !== 0) {
      report('CFDI40111');
    }
  } else if (withDiscount.length > 0 || (descuento && sign(descuento) !== 0)) {
    report('CFDI40111');
  }
  if (tooManyDecimals(descuentoS, decimals)) report('CFDI40112');

  if (!MONEDA_DECIMALS.has(moneda)) report('CFDI40113');
  const tipoCambioS = attr(root, 'TipoCambio');
  const tipoCambio = dec(tipoCambioS);
  if (moneda === 'MXN' && tipoCambioS !== undefined && !(tipoCambio && cmp(tipoCambio, { u: 1n, s: 0 }) === 0)) report('CFDI40114');
  if (moneda !== 'MXN' && moneda !== 'XXX' && tipoCambioS === undefined) report('CFDI40115');
  if (moneda === 'XXX' && tipoCambioS !== undefined) report('CFDI40116');
  if (tipoCambioS !== undefined && !TIPO_CAMBIO.test(tipoCambioS)) report('CFDI40117');

  // CFDI40119: Total = SubTotal − Descuento + trasladados − retenidos (+ local taxes), at the currency's decimals.
  if (total && subTotal && decimals !== undefined) {
    let expected = sub(subTotal, descuento ?? ZERO);
    const imp = m.impuestos?.node;
    const tras = dec(attr(imp, 'TotalImpuestosTrasladados'));
    const ret = dec(attr(imp, 'TotalImpuestosRetenidos'));
    if (tras) expected = add(expected, tras);
    if (ret) expected = sub(expected, ret);
    const locTras = dec(attr(m.implocal, 'TotaldeTraslados'));
    const locRet = dec(attr(m.implocal, 'TotaldeRetenciones'));
    if (locTras) expected = add(expected, locTras);
    if (locRet) expected = sub(expected, locRet);
    if (cmp(round(expected, decimals), total) !== 0) report('CFDI40119');
  }

  // CFDI40120 / CFDI40127: c_TipoDeComprobante's maximum Total needs a Confirmacion; within it
  // (and in a currency with no exchange rate to judge) a Confirmacion must not be there.
  const max = dec(TIPO_COMPROBANTE_MAX.get(tipo));
  const confirmacion = attr(root, 'Confirmacion');
  if (total && max) {
    const over = cmp(total, max) > 0;
    if (over && confirmacion === undefined) report('CFDI40120');
    if (!over && confirmacion !== undefined && (moneda === 'MXN' || moneda === 'XXX')) report('CFDI40127');
  }

  if (!TIPO_COMPROBANTE_MAX.has(tipo)) report('CFDI40121');
  const exportacion = attr(root, 'Exportacion') ?? '';
  if (exportacion === '02' && !m.hasCce) report('CFDI40122');
  if (!EXPORTACION.has(exportacion)) report('CFDI40123');
  if ((exportacion === '01' || exportacion === '03') && m.hasCce) report('CFDI40222');
  if (metodoPago !== undefined && !METODO_PAGO.has(metodoPago)) report('CFDI40124');
  if (metodoPago !== undefined && (tipo === 'T' || tipo === 'P')) report('CFDI40125');
  if (!isMexicanPostalCode(lugar)) report('CFDI40126');
}

export const comprobanteRules: RuleModule = {
  codes: [
    'CFDI40101', 'CFDI40103', 'CFDI40104', 'CFDI40105', 'CFDI40107', 'CFDI40108', 'CFDI40109', 'CFDI40110',
    'CFDI40111', 'CFDI40112', 'CFDI40113', 'CFDI40114', 'CFDI40115', 'CFDI40116', 'CFDI40117', 'CFDI40119',
    'CFDI40120', 'CFDI40121', 'CFDI40122', 'CFDI40123', 'CFDI40124', 'CFDI40125', 'CFDI40126', 'CFDI40127',
    'CFDI40222',
  ],
  check,
};

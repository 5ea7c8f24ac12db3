// A merchant ticket's lines as CFDI 4.0 conceptos: the merchant side prices its tickets with them and
// invoicing issues them, so a ticket's totals and its invoice's are the same numbers.
import { MERCHANT_API_MSG, type IvaKind } from '../../domain/merchant-api';
import { formatCents, productCents } from '../../domain/decimal';
import type { MerchantTicketItem } from '../db/schema';
import { baseFromGross, IVA_0, IVA_16, IVA_8, IVA_EXENTO, type ConceptoInput, type TrasladoInput } from './build';
import { fail } from '../http/errors';

const TRASLADO: Record<IvaKind, TrasladoInput> = { IVA16: IVA_16, IVA8: IVA_8, IVA0: IVA_0, EXENTO: IVA_EXENTO };

/**
 * One CFDI Concepto per ticket line (ObjetoImp 02): the line's gross amount (quantity × gross unit
 * price, to the cent) split into base and IVA so that base + IVA gives the printed amount back.
 */
export function ticketConceptos(items: readonly MerchantTicketItem[]): ConceptoInput[] {
  return items.map((it) => {
    const gross = productCents(it.quantity, it.unit_price);
    if (gross === null || gross <= 0n) throw fail(422, MERCHANT_API_MSG.lineZero);
    const kind = (it.iva in TRASLADO ? it.iva : 'IVA16') as IvaKind;
    const traslado = TRASLADO[kind];
    const grossText = formatCents(gross);
    const base = traslado.tasaOCuota === undefined ? grossText : baseFromGross(grossText, traslado.tasaOCuota);
    const unit = unitValue(base, it.quantity);
    return {
      claveProdServ: it.clave_prod_serv,
      // When no 6-decimal unit value gives the line's base back, the line goes as one unit of its total.
      cantidad: unit ? it.quantity : '1',
      claveUnidad: unit ? it.clave_unidad : 'E48',
      descripcion: unit ? it.description : `${it.description} (${it.quantity} × $${it.unit_price})`,
      valorUnitario: unit ?? base,
      objetoImp: '02',
      traslados: [traslado],
    };
  });
}

/** ValorUnitario (6 decimals) with round(quantity × it, 2) = base, or null when none does. */
function unitValue(base: string, quantity: string): string | null {
  const baseCents = productCents(base, '1');
  const [int = '', frac = ''] = quantity.split('.');
  const qUnits = BigInt(`${int}${frac}`);
  if (baseCents === null || qUnits === 0n) return null;
  // base / q in micros: baseCents × 10^4 × 10^scale(q) / qUnits, rounded half up.
  const num = baseCents * 10n ** BigInt(4 + frac.length) * 2n;
  const micros = (num / qUnits + 1n) / 2n;
  const text = `${micros / 1_000_000n}.${(micros % 1_000_000n).toString().padStart(6, '0')}`.replace(/\.?0+$/, '');
  return micros > 0n && productCents(quantity, text) === baseCents ? text : null;
}

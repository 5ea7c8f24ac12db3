// The merchant point-of-sale API (POST /api/v3/merchants/{short_name}/tickets): the body a
// point of sale sends to register a printed ticket, and why one is refused (Spanish, for the
// merchant's integrators).
import * as v from 'valibot';
import { FORMAS_PAGO } from './invoicing';

export const IVA_KINDS = ['IVA16', 'IVA8', 'IVA0', 'EXENTO'] as const;
export type IvaKind = (typeof IVA_KINDS)[number];

export const MERCHANT_API_MSG = {
  ticketNumber: 'Escribe el número de ticket (ticket_number): de 1 a 40 letras o dígitos.',
  ticketNumberForm: 'El número de ticket no cabe en el formulario de este comercio:',
  issuedAt: 'Escribe la fecha de la venta (issued_at) en formato ISO 8601 con zona horaria, por ejemplo 2026-11-22T13:45:00-06:00.',
  issuedAtFuture: 'La fecha de la venta (issued_at) no puede ser posterior a ahora.',
  issuedAtOld: 'La fecha de la venta (issued_at) tiene más de un año; ese ticket ya no se puede facturar.',
  venue: 'La sucursal (venue) no es una de las opciones del formulario de este comercio.',
  venueLong: 'La sucursal (venue) puede tener hasta 120 caracteres.',
  postalCode: 'El código postal del lugar de expedición (postal_code) debe tener 5 dígitos.',
  formaPago: `La forma de pago (forma_pago) debe ser una clave del catálogo c_FormaPago: ${Object.keys(FORMAS_PAGO).join(', ')}.`,
  checkCode: 'El código de verificación (check_code) debe tener de 4 a 16 letras mayúsculas o dígitos.',
  items: 'El ticket debe tener de 1 a 200 conceptos (items).',
  description: 'Cada concepto necesita una descripción (description) de hasta 1000 caracteres.',
  quantity: 'La cantidad (quantity) de cada concepto debe ser un número mayor que 0, con hasta 6 decimales.',
  unitPrice: 'El precio unitario (unit_price, con IVA incluido) de cada concepto debe ser un número mayor que 0, con hasta 6 decimales.',
  claveProdServ: 'La clave de producto o servicio (clave_prod_serv) debe tener 8 dígitos del catálogo c_ClaveProdServ.',
  claveUnidad: 'La clave de unidad (clave_unidad) debe ser una clave del catálogo c_ClaveUnidad, por ejemplo H87 o E48.',
  iva: `El IVA (iva) de cada concepto debe ser ${IVA_KINDS.join(', ')}.`,
  lineZero: 'Un concepto con importe de $0.00 no se puede facturar.',
  total: 'El total (total) debe ser un número con hasta 2 decimales.',
  totalMismatch: 'El total enviado no coincide con la suma de los conceptos:',
  duplicate: 'Ese número de ticket ya está registrado para este comercio.',
  /** Verify and RFC checks, per client address. */
  rateLimited: 'Hiciste muchas consultas en poco tiempo. Espera un minuto e intenta de nuevo.',
} as const;

const DECIMAL_6 = /^[0-9]{1,12}(\.[0-9]{1,6})?$/;
const positive = (s: string) => DECIMAL_6.test(s) && /[1-9]/.test(s);
const amountString = (message: string) =>
  v.pipe(v.union([v.string(message), v.number(message)], message), v.transform((x) => String(x).trim()), v.check(positive, message));

export const MerchantTicketItemBody = v.object({
  description: v.pipe(v.string(MERCHANT_API_MSG.description), v.trim(), v.minLength(1, MERCHANT_API_MSG.description), v.maxLength(1000, MERCHANT_API_MSG.description)),
  quantity: amountString(MERCHANT_API_MSG.quantity),
  unit_price: amountString(MERCHANT_API_MSG.unitPrice),
  clave_prod_serv: v.optional(v.pipe(v.string(MERCHANT_API_MSG.claveProdServ), v.regex(/^[0-9]{8}$/, MERCHANT_API_MSG.claveProdServ)), '01010101'),
  clave_unidad: v.optional(v.pipe(v.string(MERCHANT_API_MSG.claveUnidad), v.regex(/^[A-Z0-9]{2,3}$/, MERCHANT_API_MSG.claveUnidad)), 'H87'),
  iva: v.optional(v.picklist(IVA_KINDS, MERCHANT_API_MSG.iva), 'IVA16'),
});

export const MerchantTicketBody = v.object({
  ticket_number: v.pipe(v.string(MERCHANT_API_MSG.ticketNumber), v.trim(), v.toUpperCase(), v.regex(/^[A-Z0-9]{1,40}$/, MERCHANT_API_MSG.ticketNumber)),
  issued_at: v.pipe(
    v.string(MERCHANT_API_MSG.issuedAt),
    v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/, MERCHANT_API_MSG.issuedAt),
    v.check((s) => !Number.isNaN(Date.parse(s)), MERCHANT_API_MSG.issuedAt),
  ),
  venue: v.optional(v.pipe(v.string(MERCHANT_API_MSG.venue), v.trim(), v.maxLength(120, MERCHANT_API_MSG.venueLong))),
  postal_code: v.optional(v.pipe(v.string(MERCHANT_API_MSG.postalCode), v.regex(/^[0-9]{5}$/, MERCHANT_API_MSG.postalCode))),
  forma_pago: v.pipe(v.string(MERCHANT_API_MSG.formaPago), v.check((s) => Object.hasOwn(FORMAS_PAGO, s), MERCHANT_API_MSG.formaPago)),
  check_code: v.optional(v.pipe(v.string(MERCHANT_API_MSG.checkCode), v.trim(), v.toUpperCase(), v.regex(/^[A-Z0-9]{4,16}$/, MERCHANT_API_MSG.checkCode))),
  items: v.pipe(v.array(MerchantTicketItemBody, MERCHANT_API_MSG.items), v.minLength(1, MERCHANT_API_MSG.items), v.maxLength(200, MERCHANT_API_MSG.items)),
  total: v.optional(v.pipe(v.union([v.string(MERCHANT_API_MSG.total), v.number(MERCHANT_API_MSG.total)], MERCHANT_API_MSG.total), v.transform((x) => String(x).trim()), v.regex(/^[0-9]{1,12}(\.[0-9]{1,2})?$/, MERCHANT_API_MSG.total))),
});
export type MerchantTicketBody = v.InferOutput<typeof MerchantTicketBody>;
export type MerchantTicketBodyInput = v.InferInput<typeof MerchantTicketBody>;

// Demo merchant tickets: ~15 per merchant over the last 30 days, with what each merchant
// really sells and its real IVA treatment (bread, medicines, newspapers and duty-free at 0 %, a medical
// consultation exempt, the northern border at 8 %), so every form and the QR flow work on first start.
// Quantities, prices and dates come from a fixed seed; refs and check codes from the CSPRNG (a ref
// opens a public receipt view, so it must not be guessable). Written once: a settings marker is
// claimed in the same transaction.
import { eq } from 'drizzle-orm';
import type { IvaKind } from '../../domain/merchant-api';
import { FIELD_TYPE } from '../../domain/merchant-fields';
import { seededRandom } from '../../domain/seeded-random';
import { newId } from '../../domain/ids';
import type { Db } from '../db/client';
import { merchantTickets, settings, type MerchantTicketItem } from '../db/schema';
import { MERCHANT_CATALOG, type CatalogMerchant, type ItemKind } from './catalog';
import { newTicketRef, randomCode, ticketAmounts } from './merchant-tickets';

export const DEMO_MERCHANT_TICKETS_MARKER = 'demo_merchant_tickets_v1';
export const DEMO_TICKETS_PER_MERCHANT = 15;
const DAY = 86_400_000;
/** Mexico City has been UTC-6 all year since 2022. */
const MEXICO_OFFSET_H = 6;

interface Product {
  description: string;
  clave: string;
  unidad: string;
  /** Gross unit price range, pesos. */
  min: number;
  max: number;
  iva?: IvaKind;
  /** Up to this many units. */
  qty?: number;
}

const p = (description: string, clave: string, unidad: string, min: number, max: number, extra: Partial<Product> = {}): Product => ({ description, clave, unidad, min, max, ...extra });

const PRODUCTS: Record<ItemKind, Product[]> = {
  autoparts: [
    p('Aceite de motor sintético 5W-30 946 ml', '15121501', 'H87', 189, 289, { qty: 5 }),
    p('Filtro de aceite', '40161505', 'H87', 129, 219),
    p('Balatas delanteras cerámicas', '25171720', 'H87', 690, 1290),
    p('Anticongelante 50/50 3.78 L', '15121800', 'H87', 199, 299, { qty: 2 }),
    p('Batería 12 V 550 A', '26111702', 'H87', 2390, 3590),
    p('Plumas limpiaparabrisas 20"', '25174200', 'H87', 169, 289, { qty: 2 }),
  ],
  stationery: [
    p('Paquete de hojas bond carta 500 hojas', '14111507', 'H87', 119, 169, { qty: 4 }),
    p('Cuaderno profesional cuadro chico 100 hojas', '14111514', 'H87', 49, 89, { qty: 6 }),
    p('Libro de texto de matemáticas', '55101509', 'H87', 289, 459, { iva: 'IVA0' }),
    p('Caja de plumas tinta negra 12 piezas', '44121701', 'H87', 69, 129, { qty: 3 }),
    p('Tóner para impresora láser', '44103103', 'H87', 1190, 1890),
  ],
  events: [
    p('Boleto de acceso general', '90131602', 'E48', 350, 1200, { qty: 4 }),
    p('Estacionamiento del evento', '78181700', 'E48', 80, 150),
    p('Cargo por servicio', '84121500', 'E48', 45, 95),
  ],
  pharmacy: [
    p('Paracetamol 500 mg 20 tabletas', '51142100', 'H87', 39, 89, { iva: 'IVA0', qty: 3 }),
    p('Amoxicilina 500 mg 12 cápsulas', '51101500', 'H87', 89, 189, { iva: 'IVA0' }),
    p('Consulta médica general', '85121800', 'E48', 60, 90, { iva: 'EXENTO' }),
    p('Protector solar FPS 50', '53131609', 'H87', 229, 389),
    p('Termómetro digital', '42182200', 'H87', 149, 249),
  ],
  clothing: [
    p('Blusa de algodón', '53101604', 'H87', 399, 799, { qty: 2 }),
    p('Pantalón de mezclilla', '53101502', 'H87', 699, 1199),
    p('Vestido casual', '53102001', 'H87', 799, 1499),
    p('Bolsa de mano', '53121600', 'H87', 549, 999),
  ],
  transfer: [
    p('Traslado aeropuerto–hotel zona hotelera', '78111800', 'E48', 650, 1450),
    p('Traslado redondo aeropuerto–Playa del Carmen', '78111800', 'E48', 1850, 2990),
    p('Silla para bebé', '78111800', 'E48', 150, 250),
  ],
  bakery: [
    p('Baguette tradicional', '50181900', 'H87', 38, 52, { iva: 'IVA0', qty: 4 }),
    p('Croissant de mantequilla', '50181900', 'H87', 32, 45, { iva: 'IVA0', qty: 6 }),
    p('Pastel de chocolate individual', '50181900', 'H87', 78, 115, { iva: 'IVA0', qty: 3 }),
    p('Café americano', '90101503', 'E48', 42, 58, { qty: 2 }),
  ],
  newspaper: [
    p('Suscripción mensual al diario impreso', '55101504', 'E48', 280, 360, { iva: 'IVA0' }),
    p('Suscripción digital mensual', '55111500', 'E48', 99, 149, { iva: 'IVA0' }),
    p('Anuncio clasificado', '82101500', 'E48', 250, 900),
  ],
  print: [
    p('Impresión de tarjetas de presentación 1 millar', '82121500', 'E48', 350, 690),
    p('Engargolado de documento', '82121500', 'E48', 35, 60, { qty: 5 }),
    p('Impresión láser a color tamaño carta', '82121500', 'E48', 6, 12, { qty: 80 }),
    p('Lona impresa 1 × 2 m', '82121500', 'E48', 380, 620),
  ],
  restaurant: [
    p('Cabrito al pastor', '90101501', 'E48', 420, 560, { qty: 2 }),
    p('Orden de tortillas de harina', '90101501', 'E48', 45, 65, { qty: 2 }),
    p('Agua de horchata 1 L', '90101501', 'E48', 55, 75, { qty: 2 }),
    p('Queso flameado', '90101501', 'E48', 165, 215),
  ],
  hotel: [
    p('Hospedaje habitación estándar por noche', '90111501', 'DAY', 1390, 2490, { qty: 3 }),
    p('Desayuno buffet', '90101501', 'E48', 289, 349, { qty: 2 }),
    p('Servicio a la habitación', '90101501', 'E48', 260, 680),
    p('Estacionamiento por noche', '78181700', 'DAY', 120, 180, { qty: 3 }),
  ],
  airport: [
    p('Estacionamiento de la terminal', '78181700', 'E48', 95, 640),
    p('Café y pan dulce', '90101501', 'E48', 85, 165, { qty: 2 }),
    p('Comida en sala de última espera', '90101501', 'E48', 240, 520),
    p('Agua embotellada 1 L', '50202301', 'H87', 38, 55, { qty: 2 }),
  ],
  steakhouse: [
    p('Rib eye 450 g', '90101501', 'E48', 795, 985),
    p('Arrachera 300 g', '90101501', 'E48', 465, 585, { qty: 2 }),
    p('Ensalada de la casa', '90101501', 'E48', 175, 225),
    p('Copa de vino tinto', '90101501', 'E48', 165, 245, { qty: 3 }),
    p('Postre del día', '90101501', 'E48', 145, 195),
  ],
  dutyfree: [
    p('Perfume 100 ml', '53131620', 'H87', 1890, 3490, { iva: 'IVA0' }),
    p('Botella de tequila añejo 750 ml', '50202206', 'H87', 990, 2890, { iva: 'IVA0', qty: 2 }),
    p('Chocolates surtidos', '50161800', 'H87', 290, 590, { iva: 'IVA0' }),
    p('Lentes de sol', '42142900', 'H87', 1490, 3290, { iva: 'IVA0' }),
  ],
  telecom: [
    p('Pago de plan mensual', '81161700', 'E48', 299, 799),
    p('Recarga de datos 10 GB', '81161700', 'E48', 200, 300),
    p('Equipo celular a meses', '43191500', 'H87', 650, 1900),
  ],
};

/** Merchants in the northern border region charge IVA at 8 % (estímulo fiscal región fronteriza). */
const BORDER = new Set(['holiday-inn-tijuana', 'aeropuerto-ciudad-juarez', 'aeropuerto-reynosa']);

const cents = (n: number) => (Math.round(n * 100) / 100).toFixed(2);

function ticketNumber(m: CatalogMerchant, seq: number, random: () => number): string {
  const f = m.fields.find((x) => x.meaning === 'ticket_number');
  const min = f?.minLength ?? 6;
  if (f?.type === FIELD_TYPE.cardBlocks) {
    let s = String(1 + Math.floor(random() * 9));
    while (s.length < 24) s += String(Math.floor(random() * 10));
    return s;
  }
  const serial = String(100000 + Math.floor(random() * 800000) + seq * 7);
  if (f?.type === FIELD_TYPE.integer) return serial.padEnd(Math.max(min, 6), '0');
  const prefix = m.entry.short_name.replace(/[^a-z]/g, '').slice(0, 2).toUpperCase() || 'TK';
  return `${prefix}${serial.padStart(Math.max(min - prefix.length, 6), '0')}`;
}

function items(m: CatalogMerchant, random: () => number): MerchantTicketItem[] {
  const catalog = PRODUCTS[m.kind];
  const lines = 1 + Math.floor(random() * Math.min(3, catalog.length));
  const start = Math.floor(random() * catalog.length);
  const out: MerchantTicketItem[] = [];
  for (let i = 0; i < lines; i++) {
    const prod = catalog[(start + i) % catalog.length] as Product;
    const iva = prod.iva ?? (BORDER.has(m.entry.short_name) ? 'IVA8' : 'IVA16');
    out.push({
      description: prod.description,
      quantity: String(1 + Math.floor(random() * (prod.qty ?? 1))),
      unit_price: cents(prod.min + random() * (prod.max - prod.min)),
      clave_prod_serv: prod.clave,
      clave_unidad: prod.unidad,
      iva,
    });
  }
  return out;
}

/** The demo tickets of one merchant, newest last; `seed` fixes everything but refs and check codes. */
export function demoMerchantTickets(m: CatalogMerchant, now: Date, seed: number): (typeof merchantTickets.$inferInsert)[] {
  const random = seededRandom(seed);
  const venueField = m.fields.find((f) => f.meaning === 'venue');
  const checkField = m.fields.find((f) => f.meaning === 'check');
  const formas = m.kind === 'hotel' ? ['04', '28', '03'] : ['01', '04', '28'];
  const rows: (typeof merchantTickets.$inferInsert)[] = [];
  const numbers = new Set<string>();
  for (let i = 0; i < DEMO_TICKETS_PER_MERCHANT; i++) {
    const daysAgo = Math.floor(random() * 30);
    const localHour = 8 + Math.floor(random() * 14);
    const at = new Date(now.getTime() - daysAgo * DAY);
    at.setUTCHours(localHour + MEXICO_OFFSET_H, Math.floor(random() * 60), Math.floor(random() * 60), 0);
    while (at.getTime() > now.getTime()) at.setTime(at.getTime() - DAY);
    let number = ticketNumber(m, i, random);
    while (numbers.has(number)) number = ticketNumber(m, i, random);
    numbers.add(number);
    const lines = items(m, random);
    const amounts = ticketAmounts(lines);
    const venue = venueField?.options?.[Math.floor(random() * venueField.options.length)] ?? '';
    rows.push({
      id: newId(),
      companyId: m.entry.id,
      ref: newTicketRef(),
      ticketNumber: number,
      venue,
      postalCode: m.postalCode,
      issuedAt: at,
      items: lines,
      subtotal: amounts.subtotal,
      tax: amounts.tax,
      total: amounts.total,
      formaPago: formas[Math.floor(random() * formas.length)] as string,
      checkCode: randomCode(Math.max(6, checkField?.minLength ?? 0)),
      createdAt: at,
    });
  }
  return rows.sort((a, b) => (a.issuedAt as Date).getTime() - (b.issuedAt as Date).getTime());
}

/** Writes the demo merchant tickets once; answers how many were written (0 when already done). */
export async function seedDemoMerchantTickets(db: Db, now: Date = new Date()): Promise<number> {
  const [done] = await db.select({ key: settings.key }).from(settings).where(eq(settings.key, DEMO_MERCHANT_TICKETS_MARKER));
  if (done) return 0;
  const rows = MERCHANT_CATALOG.flatMap((m) => demoMerchantTickets(m, now, 0x71c4e7 ^ m.entry.id));
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(settings)
      .values({ key: DEMO_MERCHANT_TICKETS_MARKER, value: { tickets: rows.length, at: now.toISOString() } })
      .onConflictDoNothing()
      .returning({ key: settings.key });
    if (claimed.length === 0) return 0;
    for (let i = 0; i < rows.length; i += 200) {
      // A ticket number a point of sale already registered stays as it is.
      await tx.insert(merchantTickets).values(rows.slice(i, i + 200)).onConflictDoNothing();
    }
    return rows.length;
  });
}

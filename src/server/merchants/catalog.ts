// The demo merchants behind src/domain/merchants.ts MERCHANTS: invented legal names (no real
// company's), each city's real postal code, and each merchant's ticket form as real self-invoicing
// portals ask for it (docs/merchant-portals.md): ticket or folio number, date, total, branch, a
// check code, a room number for hotels, a 24-digit payment reference for the telecom merchant.
// Every demo merchant issues with SAT's public test CSD EKU9003173C9 (DESIGN §2), regime 601.
import { FIELD_TYPE } from '../../domain/merchant-fields';
import { MERCHANTS, type MerchantEntry } from '../../domain/merchants';
import type { FieldMeaning } from './fields';

/** The RFC of SAT's test CSD every demo merchant seals with (the Emisor RFC must be the CSD's). */
export const DEMO_MERCHANT_RFC = 'EKU9003173C9';
export const DEMO_MERCHANT_REGIME = '601';

/** What a merchant sells: picks the demo tickets' lines. */
export type ItemKind = 'autoparts' | 'stationery' | 'events' | 'pharmacy' | 'clothing' | 'transfer' | 'bakery' | 'newspaper' | 'print' | 'restaurant' | 'hotel' | 'airport' | 'steakhouse' | 'dutyfree' | 'telecom';

export interface CatalogField {
  /** form_configuration_id = company id × 100 + n. */
  n: number;
  name: string;
  type: number;
  meaning: FieldMeaning;
  minLength?: number;
  /** File name under /merchants/help/. */
  help?: string;
  /** Select options (type 8), in order; option_id = position + 1. */
  options?: readonly string[];
}

export interface CatalogMerchant {
  entry: MerchantEntry;
  legalName: string;
  postalCode: string;
  kind: ItemKind;
  fields: readonly CatalogField[];
}

const T = FIELD_TYPE;
const helpPath = (file: string) => `/merchants/help/${file}`;
export const HELP_IMAGES = ['ticket-number.svg', 'date.svg', 'amount.svg', 'venue.svg', 'check.svg', 'room.svg', 'reference.svg'] as const;

const date = (n: number, name = 'Fecha'): CatalogField => ({ n, name, type: T.date, meaning: 'date', help: 'date.svg' });
const amount = (n: number, name = 'Importe'): CatalogField => ({ n, name, type: T.decimal, meaning: 'amount', help: 'amount.svg' });
const venue = (n: number, name: string, options: readonly string[]): CatalogField => ({ n, name, type: T.select, meaning: 'venue', help: 'venue.svg', options });
const check = (n: number, name = 'Código de facturación', type: number = T.text): CatalogField => ({ n, name, type, meaning: 'check', minLength: 6, help: 'check.svg' });
const number = (n: number, name: string, type: number, minLength?: number): CatalogField => ({ n, name, type, meaning: 'ticket_number', minLength, help: 'ticket-number.svg' });
const label = (n: number, name: string): CatalogField => ({ n, name, type: T.label, meaning: 'label' });

const entry = (short: string): MerchantEntry => {
  const e = MERCHANTS.find((m) => m.short_name === short);
  if (!e) throw new Error(`catalog: ${short} is not in MERCHANTS`);
  return e;
};

const hotel = (short: string, legalName: string, postalCode: string): CatalogMerchant => ({
  entry: entry(short),
  legalName,
  postalCode,
  kind: 'hotel',
  fields: [
    number(1, 'Folio de la cuenta', T.text, 8),
    { n: 2, name: 'Número de habitación', type: T.integer, meaning: 'other', help: 'room.svg' },
    date(3, 'Fecha de salida'),
    amount(4),
  ],
});

// Airports: the city's own postal code; parking, food and convenience sold inside the terminal.
const AIRPORTS: Record<string, { legal: string; cp: string }> = {
  'aeropuerto-acapulco': { legal: 'SERVICIOS AEROPORTUARIOS DEL PACIFICO SUR', cp: '39300' },
  'aeropuerto-chihuahua': { legal: 'TERMINAL AEREA DE CHIHUAHUA', cp: '31000' },
  'aeropuerto-ciudad-juarez': { legal: 'TERMINAL AEREA PASO DEL NORTE', cp: '32000' },
  'aeropuerto-culiacan': { legal: 'SERVICIOS AEROPORTUARIOS DE CULIACAN', cp: '80000' },
  'aeropuerto-durango': { legal: 'TERMINAL AEREA DEL GUADIANA', cp: '34000' },
  'aeropuerto-mazatlan': { legal: 'SERVICIOS AEROPORTUARIOS DEL PUERTO DE MAZATLAN', cp: '82000' },
  'aeropuerto-monterrey': { legal: 'TERMINAL AEREA DEL CERRO DE LA SILLA', cp: '66600' },
  'aeropuerto-reynosa': { legal: 'SERVICIOS AEROPORTUARIOS DE LA FRONTERA TAMAULIPECA', cp: '88500' },
  'aeropuerto-san-luis-potosi': { legal: 'TERMINAL AEREA DEL ALTIPLANO POTOSINO', cp: '78000' },
  'aeropuerto-tampico': { legal: 'SERVICIOS AEROPORTUARIOS DEL GOLFO HUASTECO', cp: '89000' },
  'aeropuerto-torreon': { legal: 'TERMINAL AEREA DE LA LAGUNA', cp: '27000' },
  'aeropuerto-zacatecas': { legal: 'TERMINAL AEREA DE LA BUFA', cp: '98000' },
  'aeropuerto-zihuatanejo': { legal: 'SERVICIOS AEROPORTUARIOS DE LA COSTA GRANDE', cp: '40880' },
};

const airport = (e: MerchantEntry): CatalogMerchant => {
  const a = AIRPORTS[e.short_name];
  if (!a) throw new Error(`catalog: no issuer data for ${e.short_name}`);
  return {
    entry: e,
    legalName: a.legal,
    postalCode: a.cp,
    kind: 'airport',
    fields: [
      label(1, 'Estacionamiento, alimentos y tiendas de la terminal: usa el folio impreso arriba del código de barras.'),
      number(2, 'Folio del boleto', T.text, 10),
      date(3),
      amount(4),
    ],
  };
};

const steakhouse = (short: string, branch: string, postalCode: string): CatalogMerchant => ({
  entry: entry(short),
  legalName: `PARRILLA REGIA ${branch}`,
  postalCode,
  kind: 'steakhouse',
  fields: [number(1, 'Número de cheque', T.integer, 4), check(2), date(3), amount(4)],
});

const dutyFree = (short: string, legalName: string, postalCode: string, terminals: readonly string[]): CatalogMerchant => ({
  entry: entry(short),
  legalName,
  postalCode,
  kind: 'dutyfree',
  fields: [number(1, 'Número de transacción', T.text6, 12), venue(2, 'Tienda', terminals), date(3), amount(4)],
});

export const MERCHANT_CATALOG: readonly CatalogMerchant[] = [
  {
    entry: entry('autozone'), legalName: 'REFACCIONARIA AUTOPARTES DEL NORESTE', postalCode: '64000', kind: 'autoparts',
    fields: [
      label(1, 'Los datos están al pie de tu ticket de compra.'),
      number(2, 'Número de ticket', T.integer, 6),
      venue(3, 'Sucursal', ['Monterrey Centro', 'San Nicolás', 'Guadalupe', 'Apodaca']),
      date(4),
      amount(5),
    ],
  },
  {
    entry: entry('copexa'), legalName: 'COMERCIALIZADORA DE PAPELERIA Y EXPENDIOS DE OCCIDENTE', postalCode: '44100', kind: 'stationery',
    fields: [number(1, 'Folio', T.text, 8), date(2), amount(3)],
  },
  {
    entry: entry('fundidora'), legalName: 'EVENTOS Y ESPECTACULOS DEL PARQUE DE ACERO', postalCode: '64010', kind: 'events',
    fields: [number(1, 'Número de operación', T.text6, 6), check(2, 'Código de verificación', T.text6), amount(3)],
  },
  {
    entry: entry('cams'), legalName: 'CENTRO DE ABASTO MEDICO DEL SURESTE', postalCode: '06600', kind: 'pharmacy',
    fields: [number(1, 'Número de ticket', T.integer), venue(2, 'Sucursal', ['Juárez', 'Roma Norte', 'Del Valle', 'Coyoacán']), date(3), amount(4)],
  },
  {
    entry: entry('lob'), legalName: 'MODA Y ACCESORIOS DEL CARIBE MEXICANO', postalCode: '77500', kind: 'clothing',
    fields: [number(1, 'Folio', T.text, 10), venue(2, 'Tienda', ['Plaza Las Américas', 'Malecón Tajamar', 'Zona Hotelera']), amount(3)],
  },
  {
    entry: entry('green-transfer'), legalName: 'TRANSPORTACION TURISTICA VERDE DEL CARIBE', postalCode: '77560', kind: 'transfer',
    fields: [number(1, 'Número de reservación', T.text, 8), date(2, 'Fecha del servicio'), amount(3)],
  },
  {
    entry: entry('pour-la-france'), legalName: 'PANIFICADORA FRANCO REGIOMONTANA', postalCode: '66220', kind: 'bakery',
    fields: [number(1, 'Número de ticket', T.integer, 5), venue(2, 'Sucursal', ['San Pedro Garza García', 'Cumbres', 'Contry']), date(3), amount(4)],
  },
  {
    entry: entry('vanguardia'), legalName: 'EDITORIAL PERIODISTICA DEL DESIERTO COAHUILENSE', postalCode: '25000', kind: 'newspaper',
    fields: [number(1, 'Folio de suscripción', T.text, 8), check(2), amount(3)],
  },
  {
    entry: entry('medio-pliego'), legalName: 'TALLER DE IMPRESION Y ENCUADERNACION DEL NORESTE', postalCode: '64000', kind: 'print',
    fields: [number(1, 'Número de nota', T.integer, 4), date(2), amount(3)],
  },
  {
    entry: entry('quinta-dorada-saltillo'), legalName: 'RESTAURANTE Y SALON CAMPESTRE DE ARTEAGA', postalCode: '25000', kind: 'restaurant',
    fields: [number(1, 'Número de cuenta', T.integer, 4), check(2), date(3), amount(4)],
  },
  hotel('crown-plaza-monterrey', 'OPERADORA HOTELERA CORONA DEL NORTE', '64000'),
  hotel('crown-plaza-torreon', 'OPERADORA HOTELERA CORONA DE LA LAGUNA', '27000'),
  hotel('holiday-inn-monterrey', 'HOSPEDAJE VACACIONAL REGIOMONTANO', '64720'),
  hotel('istay-centro-historico', 'HOSPEDAJE URBANO DEL BARRIO ANTIGUO', '64000'),
  hotel('holiday-inn-tijuana', 'HOSPEDAJE VACACIONAL FRONTERIZO', '22000'),
  hotel('ms-milenium', 'HOTELERA MILENIO DE NUEVO LEON', '64000'),
  hotel('smart-istay', 'HOSPEDAJE URBANO INTELIGENTE DE MONTERREY', '64000'),
  ...MERCHANTS.filter((m) => m.picker === 'oma').map(airport),
  steakhouse('csj-san-jeronimo', 'DEL PONIENTE', '64640'),
  steakhouse('csj-valle', 'DE SAN PEDRO', '66220'),
  steakhouse('csj-cumbres', 'DEL NORTE', '64610'),
  dutyFree('duf-monterrey', 'TIENDAS LIBRES DE IMPUESTOS DEL NORESTE', '66600', ['Terminal A', 'Terminal B', 'Terminal C']),
  dutyFree('duf-cancun', 'TIENDAS LIBRES DE IMPUESTOS DEL CARIBE', '77565', ['Terminal 2', 'Terminal 3', 'Terminal 4']),
  {
    entry: entry('movil-norte'), legalName: 'RED CELULAR DEL NORESTE', postalCode: '64000', kind: 'telecom',
    fields: [
      label(1, 'Factura tu recarga o el pago de tu plan con los datos de tu comprobante.'),
      { n: 2, name: 'Referencia de pago', type: T.cardBlocks, meaning: 'ticket_number', help: 'reference.svg' },
      date(3, 'Fecha de pago'),
      amount(4, 'Monto pagado'),
    ],
  },
];

export const fieldId = (companyId: number, n: number): number => companyId * 100 + n;

/** The form_fields rows of a catalog merchant. */
export function catalogFieldRows(m: CatalogMerchant) {
  return m.fields.map((f, i) => ({
    id: fieldId(m.entry.id, f.n),
    companyId: m.entry.id,
    position: i + 1,
    fieldName: f.name,
    typeId: f.type,
    minLength: f.minLength ?? null,
    helperImage: f.help ? helpPath(f.help) : null,
    options: (f.options ?? []).map((title, k) => ({ option_id: k + 1, option_title: title })),
    meaning: f.meaning,
  }));
}

export function catalogMerchant(short: string): CatalogMerchant | undefined {
  return MERCHANT_CATALOG.find((m) => m.entry.short_name === short);
}

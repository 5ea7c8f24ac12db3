// The supported merchants of spec §2 and the pickers that show them. The server seeds its
// `companies` rows (with issuer data, CSD and form fields) from this list; the client draws the pickers
// from it. Ids are fixed: 1 and 2 are our own origins (manual entries, imported CFDI).

export type PickerId = 'new' | 'mil' | 'oma' | 'csj' | 'duf';

export interface MerchantEntry {
  id: number;
  short_name: string;
  /** As shown on pickers and forms. */
  name: string;
  /** The picker it is listed in. */
  picker: PickerId;
  /** Public path of our own drawn logo. */
  logo: string;
  /** Offers ticket/form-multi/{short_name} (one invoice for several tickets). */
  multi?: true;
  /** Its form works without an account (ticket/form-anonymous/{short_name}). */
  anonymous?: true;
}

const logo = (short: string) => `/merchants/${short}.svg`;
const m = (id: number, short_name: string, name: string, picker: PickerId, extra: Partial<MerchantEntry> = {}): MerchantEntry => ({
  id,
  short_name,
  name,
  picker,
  logo: logo(short_name),
  ...extra,
});

const AIRPORT_CITIES = [
  'Acapulco', 'Chihuahua', 'Ciudad Juárez', 'Culiacán', 'Durango', 'Mazatlán', 'Monterrey', 'Reynosa',
  'San Luis Potosí', 'Tampico', 'Torreón', 'Zacatecas', 'Zihuatanejo',
] as const;

/** 'Ciudad Juárez' → 'ciudad-juarez'. */
export const slug = (s: string): string =>
  s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

export const MERCHANTS: readonly MerchantEntry[] = [
  // 'new' picker (ticket/new), in the spec's order
  m(3, 'autozone', 'Autozone', 'new', { multi: true }),
  m(4, 'copexa', 'Copexa', 'new'),
  m(5, 'fundidora', 'Fundidora', 'new'),
  m(6, 'cams', 'CAMS', 'new'),
  m(7, 'lob', 'LOB', 'new'),
  m(8, 'green-transfer', 'Green Transfer', 'new'),
  m(9, 'pour-la-france', 'Pour La France', 'new', { multi: true }),
  m(10, 'vanguardia', 'Vanguardia', 'new'),
  m(11, 'medio-pliego', 'Medio Pliego', 'new'),
  m(12, 'quinta-dorada-saltillo', 'Quinta Dorada Saltillo', 'new'),
  // hotels (ticket/mil)
  m(20, 'crown-plaza-monterrey', 'Crowne Plaza Monterrey', 'mil'),
  m(21, 'crown-plaza-torreon', 'Crowne Plaza Torreón', 'mil'),
  m(22, 'holiday-inn-monterrey', 'Holiday Inn Monterrey', 'mil'),
  m(23, 'istay-centro-historico', 'iStay Centro Histórico', 'mil'),
  m(24, 'holiday-inn-tijuana', 'Holiday Inn Tijuana', 'mil'),
  m(25, 'ms-milenium', 'MS Milenium', 'mil'),
  m(26, 'smart-istay', 'Smart iStay', 'mil'),
  // airports (ticket/oma): the form's name is 'Aeropuerto de {city}'
  ...AIRPORT_CITIES.map((city, i) => m(30 + i, `aeropuerto-${slug(city)}`, `Aeropuerto de ${city}`, 'oma')),
  // steakhouse group (ticket/csj), shown as image tiles
  m(50, 'csj-san-jeronimo', 'Corte San Jerónimo — San Jerónimo', 'csj'),
  m(51, 'csj-valle', 'Corte San Jerónimo — Del Valle', 'csj'),
  m(52, 'csj-cumbres', 'Corte San Jerónimo — Cumbres', 'csj'),
  // duty-free group (ticket/duf): two branches, image tiles
  m(60, 'duf-monterrey', 'Duty Free Aeropuerto Monterrey', 'duf'),
  m(61, 'duf-cancun', 'Duty Free Aeropuerto Cancún', 'duf'),
  // the mobile-telecom merchant of the anonymous form (spec §1): the signed-out start screen
  m(70, 'movil-norte', 'Móvil Norte', 'new', { anonymous: true }),
];

/** The merchant whose anonymous form is the signed-out start screen (spec §2 rule 6). */
export const ANONYMOUS_MERCHANT = 'movil-norte';

export const PICKERS: Record<PickerId, { title: string; subPickers?: readonly PickerId[] }> = {
  new: { title: 'Facturar ticket', subPickers: ['mil', 'oma', 'duf', 'csj'] },
  mil: { title: 'Hoteles' },
  oma: { title: 'Aeropuertos' },
  csj: { title: 'Corte San Jerónimo' },
  duf: { title: 'Duty Free' },
};

/** Sub-pickers show as tiles on the 'new' picker; the hotels picker is reached from its own tile. */
export const PICKER_TILES: Record<PickerId, { name: string; logo: string }> = {
  new: { name: 'Comercios', logo: '/merchants/pickers/new.svg' },
  mil: { name: 'Hoteles', logo: '/merchants/pickers/mil.svg' },
  oma: { name: 'Aeropuertos', logo: '/merchants/pickers/oma.svg' },
  csj: { name: 'Corte San Jerónimo', logo: '/merchants/pickers/csj.svg' },
  duf: { name: 'Duty Free', logo: '/merchants/pickers/duf.svg' },
};

/** Image-tile pickers (spec §2: steakhouse branches and duty-free branches). */
export const IMAGE_TILE_PICKERS: readonly PickerId[] = ['csj', 'duf'];

export function merchantsIn(picker: PickerId): MerchantEntry[] {
  return MERCHANTS.filter((x) => x.picker === picker && !x.anonymous);
}

export function merchantByShortName(short: string): MerchantEntry | undefined {
  return MERCHANTS.find((x) => x.short_name === short);
}

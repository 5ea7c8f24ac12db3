// Draws our own merchant art: a logo per demo merchant, the picker tiles and the help
// images of the ticket forms, as small hand-written SVGs (no third-party marks, system font only).
// Run: `npx tsx tests/tools/draw-merchant-art.ts` → public/merchants/**. The test
// tests/server/merchants/art.test.ts checks the files exist, parse and stay small.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PickerId } from '../../src/domain/merchants';
import { HELP_IMAGES, MERCHANT_CATALOG, type ItemKind } from '../../src/server/merchants/catalog';

const OUT = fileURLToPath(new URL('../../public/merchants/', import.meta.url));
const FONT = 'system-ui,-apple-system,Segoe UI,Roboto,sans-serif';

/** White line glyphs on a 96 × 96 tile, drawn in its upper part (y 14–58). */
const GLYPH: Record<ItemKind | 'store', string> = {
  autoparts: '<circle cx="40" cy="30" r="10"/><path d="M47 37l18 18"/><path d="M36 26l8 8"/>',
  stationery: '<path d="M30 58l4-13 25-25 9 9-25 25z"/><path d="M53 26l9 9"/>',
  events: '<path transform="translate(7 2) scale(.85)" d="M48 16l9 18 19 3-14 13 4 19-18-10-18 10 4-19-14-13 19-3z"/>',
  pharmacy: '<path d="M48 18v38M29 37h38" stroke-width="10"/>',
  clothing: '<path d="M43 26a5 5 0 1 1 5 5v5l24 17H24l24-17"/>',
  transfer: '<rect x="22" y="24" width="52" height="26" rx="6"/><path d="M22 38h52"/><circle cx="34" cy="54" r="4"/><circle cx="62" cy="54" r="4"/>',
  bakery: '<path d="M22 46c0-14 52-22 52-8s-52 22-52 8z"/><path d="M36 34l5 10M48 30l5 10M60 28l4 9"/>',
  newspaper: '<rect x="24" y="18" width="48" height="40" rx="3"/><path d="M31 28h34M31 37h14M31 46h14M52 37h13v11H52z"/>',
  print: '<path d="M34 34V18h28v16"/><rect x="24" y="34" width="48" height="18" rx="4"/><path d="M34 46v12h28V46"/>',
  restaurant: '<path d="M36 18v40M30 18v12a6 6 0 0 0 12 0V18"/><path d="M60 58V18c-7 4-9 14-9 22h9"/>',
  hotel: '<path d="M22 56V24M22 46h52v10M22 40h52M38 40v-9h26a10 10 0 0 1 10 9"/><circle cx="30" cy="34" r="4"/>',
  airport: '<path transform="translate(7 1) scale(.85)" d="M48 16c3 0 4 4 4 8v10l22 12v6l-22-6v12l7 5v4l-11-3-11 3v-4l7-5V46l-22 6v-6l22-12V24c0-4 1-8 4-8z"/>',
  steakhouse: '<path d="M48 16c9 10 16 17 16 27a16 16 0 0 1-32 0c0-6 3-10 7-14 0 6 3 9 6 9-3-8 0-15 3-22z"/>',
  dutyfree: '<path d="M28 30h40l-3 28H31z"/><path d="M39 30v-4a9 9 0 0 1 18 0v4"/>',
  telecom: '<rect x="36" y="18" width="24" height="40" rx="4"/><path d="M44 51h8"/><path d="M66 28a12 12 0 0 1 0 16M71 23a19 19 0 0 1 0 26"/>',
  store: '<path d="M24 30l5-12h38l5 12"/><path d="M24 30c0 6 8 6 8 0 0 6 8 6 8 0 0 6 8 6 8 0 0 6 8 6 8 0 0 6 8 6 8 0"/><path d="M28 36v22h40V36M42 58V46h12v12"/>',
};

const COLOR: Record<ItemKind | 'store', string> = {
  autoparts: '#b91c1c', stationery: '#1d4ed8', events: '#7e22ce', pharmacy: '#15803d', clothing: '#be185d',
  transfer: '#047857', bakery: '#92400e', newspaper: '#334155', print: '#4338ca', restaurant: '#b45309',
  hotel: '#1e3a8a', airport: '#0e7490', steakhouse: '#7f1d1d', dutyfree: '#6d28d9', telecom: '#0f766e', store: '#0f766e',
};

/** Airports show their IATA code (a location code, not a mark). */
const IATA: Record<string, string> = {
  'aeropuerto-acapulco': 'ACA', 'aeropuerto-chihuahua': 'CUU', 'aeropuerto-ciudad-juarez': 'CJS', 'aeropuerto-culiacan': 'CUL',
  'aeropuerto-durango': 'DGO', 'aeropuerto-mazatlan': 'MZT', 'aeropuerto-monterrey': 'MTY', 'aeropuerto-reynosa': 'REX',
  'aeropuerto-san-luis-potosi': 'SLP', 'aeropuerto-tampico': 'TAM', 'aeropuerto-torreon': 'TRC', 'aeropuerto-zacatecas': 'ZCL',
  'aeropuerto-zihuatanejo': 'ZIH',
};

/** Branches of a group: the group's glyph and colour, told apart by these letters. */
const BRANCH: Record<string, string> = {
  'csj-san-jeronimo': 'SJ', 'csj-valle': 'DV', 'csj-cumbres': 'CUM', 'duf-monterrey': 'MTY', 'duf-cancun': 'CUN',
};

function monogram(short: string, name: string): string {
  if (IATA[short]) return IATA[short];
  if (BRANCH[short]) return BRANCH[short];
  const words = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/—.*$/, '')
    .split(/[^A-Za-z]+/)
    .filter((w) => w.length > 1 && !['de', 'la', 'del'].includes(w.toLowerCase()));
  return (words.length === 1 ? (words[0] ?? '').slice(0, 3) : words.map((w) => w[0]).join('')).slice(0, 4).toUpperCase();
}

const tile = (bg: string, glyph: string, label: string, title: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96" role="img"><title>${title}</title>` +
  `<rect width="96" height="96" rx="20" fill="${bg}"/>` +
  `<g fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round" stroke-linejoin="round">${glyph}</g>` +
  (label ? `<text x="48" y="84" fill="#fff" font-family="${FONT}" font-size="${label.length > 3 ? 15 : 18}" font-weight="700" text-anchor="middle" letter-spacing="1">${label}</text>` : '') +
  '</svg>\n';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function write(path: string, svg: string): void {
  mkdirSync(join(OUT, path, '..'), { recursive: true });
  writeFileSync(join(OUT, path), svg);
}

for (const m of MERCHANT_CATALOG) {
  write(`${m.entry.short_name}.svg`, tile(COLOR[m.kind], GLYPH[m.kind], monogram(m.entry.short_name, m.entry.name), esc(m.entry.name)));
}

const PICKER_ART: Record<PickerId, [ItemKind | 'store', string]> = {
  new: ['store', 'Comercios'], mil: ['hotel', 'Hoteles'], oma: ['airport', 'Aeropuertos'], csj: ['steakhouse', 'Corte San Jerónimo'], duf: ['dutyfree', 'Duty Free'],
};
for (const [id, [kind, title]] of Object.entries(PICKER_ART)) {
  // Bigger glyph, no letters: the picker writes the tile's name under it.
  write(`pickers/${id}.svg`, tile(COLOR[kind], `<g transform="translate(-12 -4) scale(1.25)">${GLYPH[kind]}</g>`, '', esc(title)));
}

// Help images: a printed ticket with the line a field asks for highlighted.
type Line = [key: string, left: string, right: string];
const LINES: Line[] = [
  ['ticket-number.svg', 'TICKET', '004512'],
  ['venue.svg', 'SUC.', 'CENTRO'],
  ['date.svg', 'FECHA', '2026/11/22'],
  ['room.svg', 'HAB.', '305'],
  ['check.svg', 'CÓDIGO', 'K7Q2XM'],
  ['amount.svg', 'TOTAL', '$282.00'],
  ['reference.svg', 'REF.', '1234 5678 9012'],
];
const HELP_TEXT: Record<string, string> = {
  'ticket-number.svg': 'Número de ticket', 'venue.svg': 'Sucursal', 'date.svg': 'Fecha de compra', 'room.svg': 'Número de habitación',
  'check.svg': 'Código de facturación', 'amount.svg': 'Total pagado', 'reference.svg': 'Referencia de pago',
};

for (const file of HELP_IMAGES) {
  const rows = LINES.map(([key, l, r], i) => {
    const y = 62 + i * 20;
    const on = key === file;
    return (on ? `<rect x="20" y="${y - 14}" width="160" height="20" rx="4" fill="#ccfbf1" stroke="#0f766e" stroke-width="2"/>` : '') +
      `<text x="28" y="${y}" fill="${on ? '#134e4a' : '#6b7280'}"${on ? ' font-weight="700"' : ''}>${l}</text><text x="172" y="${y}" text-anchor="end" fill="${on ? '#134e4a' : '#6b7280'}"${on ? ' font-weight="700"' : ''}>${r}</text>`;
  }).join('');
  write(
    `help/${file}`,
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 240" role="img"><title>Dónde está: ${HELP_TEXT[file]}</title>` +
      '<path d="M14 8h172v216l-11-7-11 7-11-7-11 7-11-7-11 7-11-7-11 7-11-7-11 7-11-7-11 7-11-7-11 7-11-7-11 7z" fill="#fff" stroke="#d1d5db" stroke-width="2"/>' +
      `<g font-family="${FONT}" font-size="12"><rect x="70" y="18" width="60" height="10" rx="5" fill="#9ca3af"/>${rows}</g>` +
      '<path d="M40 210h120" stroke="#e5e7eb" stroke-width="6" stroke-dasharray="3 3"/></svg>\n',
  );
}
console.log(`Dibujos en ${OUT}`);

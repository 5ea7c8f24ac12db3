// Draws our app mark once as SVG and renders the PNG icons from it with the system Chromium,
// so every icon (favicon, install icons, maskable, Apple touch) stays in step with one source.
// Run: npx tsx tests/tools/make-icons.ts  (writes into public/; commit the results)
import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumExecutable } from './system-tools';

const TEAL = '#0f766e';
const WHITE = '#ffffff';
const OUT = resolve(import.meta.dirname, '../../public');

// A receipt with a zig-zag tear and a check mark: "your tickets, in order".
// Drawn on a 512 grid centred on (256, 256); its corners lie 200 units from the centre.
const GLYPH = [
  `<path fill="${WHITE}" d="M160 96h192a24 24 0 0 1 24 24v296l-40-24-40 24-40-24-40 24-40-24-40 24V120a24 24 0 0 1 24-24z"/>`,
  `<path fill="none" stroke="${TEAL}" stroke-width="22" stroke-linecap="round" d="M192 164h128"/>`,
  `<path fill="none" stroke="${TEAL}" stroke-width="34" stroke-linecap="round" stroke-linejoin="round" d="M190 270l46 46 86-96"/>`,
].join('');

/** A rounded tile with transparent corners: favicon and the "any" install icons. */
function roundedSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">` +
    `<rect width="512" height="512" rx="112" fill="${TEAL}"/>${GLYPH}</svg>`;
}

/** Full-bleed background with the glyph scaled into the inner safe zone (maskable, Apple touch). */
function fullBleedSvg(scale: number): string {
  const offset = 256 * (1 - scale);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">` +
    `<rect width="512" height="512" fill="${TEAL}"/>` +
    `<g transform="translate(${offset} ${offset}) scale(${scale})">${GLYPH}</g></svg>`;
}

const ICONS: { file: string; size: number; svg: string; transparent: boolean }[] = [
  { file: 'pwa-192x192.png', size: 192, svg: roundedSvg(), transparent: true },
  { file: 'pwa-512x512.png', size: 512, svg: roundedSvg(), transparent: true },
  // Maskable safe zone is a circle of radius 0.4 × size: at 0.8 the glyph's corners sit at 160/256.
  { file: 'maskable-512x512.png', size: 512, svg: fullBleedSvg(0.8), transparent: false },
  // iOS draws its own rounded corners and shows transparency as black: full bleed, slightly inset.
  { file: 'apple-touch-icon-180x180.png', size: 180, svg: fullBleedSvg(0.86), transparent: false },
];

async function main(): Promise<void> {
  await mkdir(OUT, { recursive: true });
  await writeFile(resolve(OUT, 'favicon.svg'), roundedSvg() + '\n');
  const browser = await chromium.launch({
    executablePath: await chromiumExecutable(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    for (const icon of ICONS) {
      const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size }, deviceScaleFactor: 1 });
      const svg = icon.svg.replace('<svg ', `<svg width="${icon.size}" height="${icon.size}" `);
      await page.setContent(
        `<!doctype html><html><body style="margin:0;background:transparent">${svg}</body></html>`,
      );
      await page.locator('svg').screenshot({ path: resolve(OUT, icon.file), omitBackground: icon.transparent });
      await page.close();
      console.log(`public/${icon.file} ${icon.size}x${icon.size}`);
    }
  } finally {
    await browser.close();
  }
}

await main();

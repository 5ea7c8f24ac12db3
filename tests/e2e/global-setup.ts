// Finds the browser once for every test file (the machine's, else the one an npm package ships: see
// tests/tools/system-tools.ts) and hands it on in CHROMIUM_PATH; fails early, with a clear message, when
// there is no browser or no build to test.
import { existsSync } from 'node:fs';
import { chromiumExecutable } from '../tools/system-tools';

export default async function setup(): Promise<void> {
  const path = await chromiumExecutable();
  if (!existsSync(path)) {
    throw new Error(`No se encontró Chromium en ${path}. Instálalo con "apt-get install -y chromium" (Debian) o indica su ruta en CHROMIUM_PATH.`);
  }
  process.env.CHROMIUM_PATH = path;
  if (!existsSync('dist/index.html')) {
    throw new Error('Falta la compilación de la app: ejecuta "npm run build" antes de las pruebas end-to-end.');
  }
}

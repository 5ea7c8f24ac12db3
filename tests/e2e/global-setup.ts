// Fails early, with a clear message, when there is no browser or no build to test.
import { existsSync } from 'node:fs';
import { chromiumPath } from './harness';

export default function setup(): void {
  const path = chromiumPath();
  if (!existsSync(path)) {
    throw new Error(
      `No se encontró Chromium en ${path}. Instálalo con "apt-get install -y chromium" (Debian) o indica su ruta en CHROMIUM_PATH.`,
    );
  }
  if (!existsSync('dist/index.html')) {
    throw new Error('Falta la compilación de la app: ejecuta "npm run build" antes de las pruebas end-to-end.');
  }
}

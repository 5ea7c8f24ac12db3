// Registers a third-party app for OAuth (operator only). As a CLI:
//   npx tsx src/server/oauth/register-app.ts --name "Mi app" --callback https://mi.app/cc/callback \
//     [--description "…"] [--icon ./icono.png] [--website https://mi.app]
// prints the client_id and the client_secret once (only its SHA-256 is kept). Uses DATABASE_URL, else the
// embedded PGlite in DATA_DIR (stop the server first: PGlite has one process at a time).
// The icon is a local PNG/JPEG/WebP/GIF file (up to 64 KB) stored as a data: URL: the app's CSP allows
// images only from 'self' and data:, so a remote icon URL would not show on the authorisation screen.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sniffImageType } from '../files/image-type';
import { registerApplication } from './applications';

const ICON_MAX_BYTES = 64 * 1024;

/** A local image file as a data: URL (what the authorisation screen can show). */
export function iconDataUrl(path: string): string {
  const bytes = readFileSync(path);
  if (bytes.byteLength > ICON_MAX_BYTES) throw new Error('El ícono puede pesar hasta 64 KB.');
  const type = sniffImageType(bytes);
  if (!type) throw new Error('El ícono debe ser PNG, JPEG, WebP o GIF.');
  return `data:${type};base64,${bytes.toString('base64')}`;
}

async function cli(): Promise<void> {
  const { values } = parseArgs({
    options: {
      name: { type: 'string' },
      callback: { type: 'string' },
      description: { type: 'string' },
      icon: { type: 'string' },
      website: { type: 'string' },
    },
  });
  const { name, callback } = values;
  if (!name || !callback) {
    console.error('Uso: tsx src/server/oauth/register-app.ts --name <nombre> --callback <url> [--description …] [--icon <archivo.png>] [--website <url>]');
    process.exit(2);
  }
  const { withCliDatabase } = await import('../cli-database');
  await withCliDatabase(
    async (db) => {
      const app = await registerApplication(db, {
        name,
        callbackUrl: callback,
        description: values.description,
        icon: values.icon ? iconDataUrl(values.icon) : '',
        website: values.website,
      });
      console.log(`Aplicación «${name.trim()}» registrada. Guarda el secreto: no se vuelve a mostrar.`);
      console.log(`client_id=${app.clientId}`);
      console.log(`client_secret=${app.secret}`);
    },
    { seed: true },
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  cli().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}

// CLI: `tsx src/server/rfc/import-inactive.ts <file.csv> [list-name]` loads one of SAT's published
// lists of non-active RFCs (69-B listado completo, no localizados, cancelados…) into inactive_rfcs,
// replacing that list's previous import. Uses DATABASE_URL, else the embedded PGlite in DATA_DIR
// (stop the server first: PGlite allows one process).
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { withCliDatabase } from '../cli-database';
import { parseInactiveList, replaceInactiveList } from './inactive-list';

async function main(): Promise<void> {
  const [file, name] = process.argv.slice(2);
  if (!file) {
    console.error('Uso: tsx src/server/rfc/import-inactive.ts <archivo.csv> [nombre-de-la-lista]');
    process.exit(2);
  }
  const list = (name ?? basename(file, extname(file))).trim().slice(0, 80);
  const parsed = parseInactiveList(readFileSync(file));
  await withCliDatabase(async (db) => {
    const inserted = await replaceInactiveList(db, list, parsed.rfcs);
    console.log(`Lista «${list}»: ${parsed.rfcs.length} RFC leídos, ${inserted} guardados (${parsed.rfcs.length - inserted} ya estaban en otra lista), ${parsed.skipped} renglones sin RFC.`);
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

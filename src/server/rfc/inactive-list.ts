// Reading SAT's published lists of RFCs that cannot receive invoices, as CSV: the 69-B "Listado
// completo" (title lines, then No, RFC, Nombre del Contribuyente, Situación del contribuyente, …),
// "No localizados" and "Cancelados" (RFC, RAZÓN SOCIAL, TIPO PERSONA, SUPUESTO, …). SAT serves them in
// Latin-1 (Windows-1252) with a few title lines above the header, so the header is found by its RFC
// column rather than assumed to be the first line.
import Papa from 'papaparse';
import { normalizeRfc } from '../../domain/rfc';
import type { Db } from '../db/client';
import { inactiveRfcs } from '../db/schema';
import { eq } from 'drizzle-orm';

/** UTF-8 when the bytes are valid UTF-8, else Windows-1252 (SAT's encoding). */
export function decodeSatText(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder('windows-1252').decode(bytes);
  }
  return text.replace(/^\uFEFF/, '');
}

/**
 * Hands each CSV row to `onRow` (RFC 4180: quoted fields may hold commas, doubled quotes and line
 * breaks). Lines may end in \r\n, \n or \r, even mixed in one file. A quote that does not close its
 * field (text after it, or no closing quote at all) refuses the file: papaparse would read on past it and
 * take the rows below into one field, and a list replaced by a file read that way would lose RFCs.
 */
function forEachRow(text: string, onRow: (row: string[]) => void): void {
  let rows = 0;
  let badRow = 0;
  // papaparse takes one line ending per file: every \r\n and lone \r become \n, which changes no result
  // (values are trimmed, and a line break inside a value makes no RFC either way).
  Papa.parse<string[]>(text.replace(/\r\n?/g, '\n'), {
    delimiter: ',',
    newline: '\n',
    quoteChar: '"',
    escapeChar: '"',
    skipEmptyLines: false,
    step: (result, parser) => {
      rows++;
      if (result.errors.length > 0) {
        badRow = rows;
        parser.abort();
        return;
      }
      onRow(result.data);
    },
  });
  if (badRow > 0) throw new Error(`comillas sin cerrar en el renglón ${badRow}: no es un CSV válido`);
}

const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').trim().toUpperCase();
const SHAPE = /^[A-ZÑ&]{3,4}[0-9]{6}[A-Z0-9]{3}$/;
/** 69-B outcomes that clear the taxpayer: they are not inactive. */
const CLEARED = ['DESVIRTUADO', 'SENTENCIA FAVORABLE'];

export interface ParsedList {
  rfcs: string[];
  /** Rows without a usable RFC (blank lines, notes at the bottom). */
  skipped: number;
}

/** The inactive RFCs of one SAT list, deduplicated, in file order. */
export function parseInactiveList(bytes: Uint8Array): ParsedList {
  const seen = new Set<string>();
  let rfcColumn = -1;
  let situationColumn = -1;
  let skipped = 0;
  forEachRow(decodeSatText(bytes), (row) => {
    if (rfcColumn < 0) {
      const headers = row.map(fold);
      rfcColumn = headers.indexOf('RFC');
      situationColumn = headers.findIndex((h) => h.startsWith('SITUACION'));
      return; // title lines above the header, then the header itself
    }
    const rfc = normalizeRfc(row[rfcColumn] ?? '');
    if (!SHAPE.test(rfc)) {
      if (row.some((c) => c.trim() !== '')) skipped++;
      return;
    }
    if (situationColumn >= 0 && CLEARED.includes(fold(row[situationColumn] ?? ''))) return;
    seen.add(rfc);
  });
  if (rfcColumn < 0) throw new Error('no RFC column: not one of SAT’s lists');
  return { rfcs: [...seen], skipped };
}

const BATCH = 1000;

/**
 * Replaces list `list` with `rfcs` in one transaction (an RFC dropped from SAT's list stops being
 * refused). An RFC already kept under another list stays under that one.
 */
export async function replaceInactiveList(db: Db, list: string, rfcs: readonly string[]): Promise<number> {
  let inserted = 0;
  await db.transaction(async (tx) => {
    await tx.delete(inactiveRfcs).where(eq(inactiveRfcs.list, list));
    for (let i = 0; i < rfcs.length; i += BATCH) {
      const rows = rfcs.slice(i, i + BATCH).map((rfc) => ({ rfc, list }));
      const done = await tx.insert(inactiveRfcs).values(rows).onConflictDoNothing().returning({ rfc: inactiveRfcs.rfc });
      inserted += done.length;
    }
  });
  return inserted;
}

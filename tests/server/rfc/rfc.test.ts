// GET /api/v3/rfc/{rfc} and the importer of SAT's lists of non-active RFCs (69-B listado completo,
// no localizados, cancelados): shape, check digit, Latin-1 files with title lines, list replacement.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CheckSum, Rfc } from '@nodecfdi/rfc';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERCHANT_API_MSG } from '../../../src/domain/merchant-api';
import { MSG } from '../../../src/domain/messages';
import { createDb } from '../../../src/server/db/client';
import { inactiveRfcs } from '../../../src/server/db/schema';
import { decodeSatText, parseInactiveList, replaceInactiveList } from '../../../src/server/rfc/inactive-list';
import { checkRfcActive, rfcShapeAndDigitOk } from '../../../src/server/rfc/rfc-check';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';

/** An RFC with SAT's check digit computed for it. */
const withDigit = (first11or12: string) => {
  const draft = `${first11or12}0`;
  return `${first11or12}${new CheckSum().calculate(draft)}`;
};

const A = withDigit('GOMA8501012K'); // persona física
const B = withDigit('EMP0102037H'); // persona moral
const C = withDigit('DESV7711116A'); // desvirtuado: not inactive
const D = withDigit('NOL9903047Z'); // no localizado

/** SAT's 69-B "Listado completo" as it is published: Windows-1252, title lines, then the header. */
function list69b(): Buffer {
  const text = [
    'Información actualizada al 15 de noviembre de 2026,,,,',
    'Listado completo de contribuyentes (Artículo 69-B del Código Fiscal de la Federación),,,,',
    'No,RFC,Nombre del Contribuyente,Situación del contribuyente,Número y fecha de oficio global de presunción SAT',
    `1,${A},"GÓMEZ MARTÍNEZ, ANA",Definitivo,500-39-00-02-02-2019-1234 de fecha 12 de marzo de 2019`,
    `2,${B},"EMPRESA ÑANDÚ ""FANTASMA"" SA DE CV",Presunto,500-05-2026-111`,
    `3,${C},DESVIRTUADO DEL SUR SC,Desvirtuado,500-05-2020-9`,
    ',,,,',
    'Nota: la información se publica en términos del artículo 69-B,,,,',
  ].join('\r\n');
  return Buffer.from(text, 'latin1');
}

describe('reading SAT lists', () => {
  it('computes real check digits for the test RFCs', () => {
    for (const r of [A, B, C, D]) expect(Rfc.parse(r).doesCheckSumMatch(), r).toBe(true);
  });

  it('decodes Windows-1252 and UTF-8 (with BOM)', () => {
    expect(decodeSatText(Buffer.from('Situación ÑANDÚ', 'latin1'))).toBe('Situación ÑANDÚ');
    expect(decodeSatText(Buffer.from('\uFEFFSituación', 'utf8'))).toBe('Situación');
  });

  it('finds the header below the title lines, keeps Definitivo and Presunto, drops Desvirtuado and notes', () => {
    const parsed = parseInactiveList(list69b());
    expect(parsed.rfcs).toEqual([A, B]);
    expect(parsed.skipped).toBe(1); // the note line
  });

  it('reads the no-localizados / cancelados layout (RFC first, no situation column)', () => {
    const csv = Buffer.from(`RFC,RAZÓN SOCIAL,TIPO PERSONA,SUPUESTO,FECHAS DE PRIMERA PUBLICACION\n${D},NO LOCALIZADO SA,Moral,NO LOCALIZADOS,01/02/2025\n${d(D)},DUP,Moral,NO LOCALIZADOS,01/02/2025\n`, 'latin1');
    expect(parseInactiveList(csv).rfcs).toEqual([D]);
    function d(x: string) {
      return ` ${x.toLowerCase()} `;
    }
  });

  it('refuses a file without an RFC column', () => {
    expect(() => parseInactiveList(Buffer.from('a,b\n1,2\n'))).toThrow(/RFC/);
  });

  it('reads lines ending in \\r\\n, \\n or \\r alike, even mixed, and line breaks inside quoted values', () => {
    const csv = Buffer.from(`RFC,RAZÓN SOCIAL\r\n${A},"UNA\r\nDOS"\n${B},X\r${D},"TRES\rCUATRO"\r\n`, 'latin1');
    expect(parseInactiveList(csv)).toEqual({ rfcs: [A, B, D], skipped: 0 });
  });

  it('refuses a file with a quote left open, naming its row, rather than read the rows below into one value', () => {
    const csv = (row: string) => Buffer.from(`RFC,RAZÓN SOCIAL\n${A},UNO\n${row}\n${D},CUATRO\n`, 'latin1');
    expect(() => parseInactiveList(csv(`${B},"DOS "X" SA`))).toThrow('comillas sin cerrar en el renglón 3: no es un CSV válido');
    expect(() => parseInactiveList(csv(`${B},"DOS`))).toThrow('comillas sin cerrar en el renglón 3');
    // A quote inside an unquoted value is only a character, as RFC 4180 readers take it.
    expect(parseInactiveList(csv(`${B},DOS "X" SA`)).rfcs).toEqual([A, B, D]);
  });

  it('shape and check digit: generic RFCs pass as they are', () => {
    expect(rfcShapeAndDigitOk('EKU9003173C9')).toBe(true);
    expect(rfcShapeAndDigitOk('eku9003173c9 ')).toBe(true);
    expect(rfcShapeAndDigitOk('XAXX010101000')).toBe(true);
    expect(rfcShapeAndDigitOk('XEXX010101000')).toBe(true);
    expect(rfcShapeAndDigitOk('EKU9003173C8')).toBe(false);
    expect(rfcShapeAndDigitOk('EKU9013173C9')).toBe(false);
    expect(rfcShapeAndDigitOk('EKU900317')).toBe(false);
  });
});

describe.each(DRIVERS)('RFC check on %s', (driver) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(driver);
  });
  afterAll(async () => h?.close());

  it('answers 200 for an active RFC, 422 with the spec message for a bad shape or check digit', async () => {
    const okRfc = await h.call('GET', '/api/v3/rfc/xiqb891116qe4');
    expect(okRfc.status).toBe(200);
    expect(okRfc.json).toEqual({ response: { rfc: 'XIQB891116QE4', active: true } });
    expect((await h.call('GET', '/api/v3/rfc/XAXX010101000')).status).toBe(200);
    for (const bad of ['XIQB891116QE5', 'ABC', 'XIQB891316QE4']) {
      const r = await h.call('GET', `/api/v3/rfc/${bad}`);
      expect(r.status, bad).toBe(422);
      expect(r.json).toEqual({ errors: [MSG.rfcPatternInvalid] });
    }
  });

  it('imports a list and refuses its RFCs with the spec message; a new import of the list replaces it', async () => {
    const db = h.database.db;
    expect(await replaceInactiveList(db, '69-B', parseInactiveList(list69b()).rfcs)).toBe(2);
    expect(await checkRfcActive(db, A)).toBe('inactive');
    expect(await checkRfcActive(db, C)).toBe('ok');
    expect(await checkRfcActive(db, 'EKU9003173C8')).toBe('invalid');
    const r = await h.call('GET', `/api/v3/rfc/${B}`);
    expect(r.status).toBe(422);
    expect(r.json).toEqual({ errors: [MSG.rfcInactive] });
    // B left SAT's list: the next import clears it; another list's RFCs stay
    expect(await replaceInactiveList(db, 'no-localizados', [D])).toBe(1);
    expect(await replaceInactiveList(db, '69-B', [A])).toBe(1);
    expect(await checkRfcActive(db, B)).toBe('ok');
    expect(await checkRfcActive(db, D)).toBe('inactive');
    const rows = await db.select().from(inactiveRfcs).where(eq(inactiveRfcs.rfc, A));
    expect(rows).toEqual([expect.objectContaining({ rfc: A, list: '69-B' })]);
  });

  it('imports in batches (multi-row inserts) without losing rows', async () => {
    const many: string[] = [];
    for (let i = 0; many.length < 2500; i++) {
      const base = `BAT${String(100101 + (i % 9) * 10000 + Math.floor(i / 9)).padStart(6, '0')}`;
      const draft = `${base}A1`;
      const rfc = withDigit(draft);
      if (Rfc.parseOrNull(rfc)?.doesCheckSumMatch()) many.push(rfc);
    }
    expect(await replaceInactiveList(h.database.db, 'cancelados', many)).toBe(2500);
    expect(await checkRfcActive(h.database.db, many[2499] as string)).toBe('inactive');
  });

  it('limits each address to 60 checks a minute', async () => {
    const from = '203.0.113.9';
    for (let i = 0; i < 60; i++) expect((await h.call('GET', '/api/v3/rfc/EKU9003173C9', { ip: from })).status).toBe(200);
    const r = await h.call('GET', '/api/v3/rfc/EKU9003173C9', { ip: from });
    expect(r.status).toBe(429);
    expect(r.json).toEqual({ errors: [MERCHANT_API_MSG.rateLimited] });
  });
});

describe('command-line tools (embedded PGlite in a scratch DATA_DIR)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cc-rfc-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = promisify(execFile);
  const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: '' };

  it('import-inactive.ts loads a CSV; merchant-key.ts prints a key whose hash is stored', async () => {
    const csv = join(dir, 'Listado_completo_69-B.csv');
    writeFileSync(csv, list69b());
    const imported = await run('npx', ['tsx', 'src/server/rfc/import-inactive.ts', csv, '69-B'], { env, timeout: 120_000 });
    expect(imported.stdout).toContain('Lista «69-B»: 2 RFC leídos, 2 guardados');
    const key = await run('npx', ['tsx', 'src/server/merchants/merchant-key.ts', 'autozone'], { env, timeout: 120_000 });
    const printed = key.stdout.trim().split('\n').pop() as string;
    expect(printed).toMatch(/^ccm_[A-Za-z0-9_-]{43}$/);
    const unknown = await run('npx', ['tsx', 'src/server/merchants/merchant-key.ts', 'nadie'], { env, timeout: 120_000 }).catch((e: { code: number; stderr: string }) => e);
    expect((unknown as { code: number }).code).toBe(1);
    expect((unknown as { stderr: string }).stderr).toContain('No existe el comercio «nadie».');
    const database = await createDb({ dataDir: join(dir, 'pglite') });
    try {
      expect(await checkRfcActive(database.db, A)).toBe('inactive');
      const { merchantKeyMatches } = await import('../../../src/server/merchants/merchant-key');
      const { companies } = await import('../../../src/server/db/schema');
      const [row] = await database.db.select({ hash: companies.apiKeyHash }).from(companies).where(eq(companies.shortName, 'autozone'));
      expect(merchantKeyMatches(printed, row?.hash ?? null)).toBe(true);
    } finally {
      await database.close();
    }
  }, 240_000);
});

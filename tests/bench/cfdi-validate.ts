// What validating a CFDI on import costs, on one core: both seals (the Sello over SAT's cadena with the
// CFDI's own certificate, the timbre's SelloSAT with the stamping certificate) and SAT's CFDI 4.0 rules,
// as the parse workers run them (cfdiChecks in src/server/cfdi/verify-seals.ts), next to the read alone
// (readCfdi) and a worker's whole job per imported file (readCheckedCfdi: the read's own parse builds the
// tree the checks walk, so the file is parsed once). The documents: every
// fixture CFDI the reader accepts plus invoices stamped by our sandbox PAC (whose SelloSAT we can check),
// round after round for a few seconds after a warm-up, timed in CPU microseconds. Wired into run.ts's
// import section.
// Run: npx tsx tests/bench/cfdi-validate.ts [--seconds S]
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { IVA_16 } from '../../src/server/cfdi/build';
import { issueSandboxCfdi } from '../../src/server/cfdi/issue';
import { readCfdi } from '../../src/server/cfdi/read';
import { checkCfdi40 } from '../../src/server/cfdi/rules';
import { openTestCsd } from '../../src/server/cfdi/seal';
import { cfdiChecks, parseForSeals, verifySeals } from '../../src/server/cfdi/verify-seals';
import { readCheckedCfdi } from '../../src/server/imports/parse-task';
import { cpuUsPerDoc } from './cpu-time';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/cfdi');

export interface ValidateFigures {
  files: number;
  averageBytes: number;
  /** Microseconds per CFDI. */
  readUs: number;
  sealsUs: number;
  rulesUs: number;
  /** Both seals and the rules, parsing the file for them: validation on its own. */
  validateUs: number;
  /** Read and validated from one parse (readCheckedCfdi): a parse worker's work per imported CFDI. */
  readAndValidateUs: number;
  /** What validation adds to an import's read: readAndValidateUs − readUs. */
  importAddsUs: number;
  validatePerSecond: number;
  readAndValidatePerSecond: number;
  /** How the documents came out (a check that the work measured is the real one). */
  outcomes: Record<string, number>;
}

/** Sandbox-stamped invoices between the demo's RFCs: a few concept lines each, both seals checkable. */
async function sandboxInvoices(n: number): Promise<Uint8Array[]> {
  const csd = openTestCsd('EKU9003173C9');
  const out: Uint8Array[] = [];
  for (let i = 0; i < n; i++) {
    const { xml } = await issueSandboxCfdi(
      {
        serie: 'B',
        folio: String(i + 1),
        fecha: '2026-05-01T12:00:00',
        formaPago: '04',
        metodoPago: 'PUE',
        tipoDeComprobante: 'I',
        lugarExpedicion: '42501',
        emisor: { rfc: 'EKU9003173C9', nombre: 'ESCUELA KEMPER URGATE', regimenFiscal: '601' },
        receptor: { rfc: 'XIQB891116QE4', nombre: 'BERENICE XIMO QUEZADA', domicilioFiscalReceptor: '88965', regimenFiscalReceptor: '612', usoCfdi: 'G03' },
        conceptos: Array.from({ length: 1 + (i % 4) }, (_, k) => ({
          claveProdServ: '50202306', noIdentificacion: `TK-${k}`, cantidad: '2', claveUnidad: 'H87', unidad: 'Pieza',
          descripcion: `Café americano ${k}`, valorUnitario: '43.10', objetoImp: '02', traslados: [IVA_16],
        })),
      },
      csd,
      // Stamped seconds after its Fecha (42501 is UTC-6), as a PAC stamps.
      { at: new Date('2026-05-01T18:00:05Z') },
    );
    out.push(new TextEncoder().encode(xml));
  }
  return out;
}

export async function cfdiValidateFigures(seconds = 3): Promise<ValidateFigures> {
  const fixtures = readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.xml'))
    .map((f) => new Uint8Array(readFileSync(resolve(FIXTURES, f))))
    .filter((b) => readCfdi(b).ok);
  const docs = [...fixtures, ...(await sandboxInvoices(8))];
  const outcomes: Record<string, number> = {};
  for (const d of docs) {
    const c = cfdiChecks(d);
    const key = `seal ${c.seal}, sello SAT ${c.sealSat}`;
    outcomes[key] = (outcomes[key] ?? 0) + 1;
  }
  const share = seconds / 5;
  const readUs = cpuUsPerDoc(docs, share, (d) => readCfdi(d));
  const sealsUs = cpuUsPerDoc(docs, share, (d) => verifySeals(d));
  const rulesUs = cpuUsPerDoc(docs, share, (d) => checkCfdi40(parseForSeals(d) ?? d, { skipSeal: true }));
  const validateUs = cpuUsPerDoc(docs, share, (d) => cfdiChecks(d));
  const readAndValidateUs = cpuUsPerDoc(docs, share, (d) => readCheckedCfdi(d));
  const round = (x: number) => Math.round(x * 10) / 10;
  return {
    files: docs.length,
    averageBytes: Math.round(docs.reduce((s, d) => s + d.byteLength, 0) / docs.length),
    readUs: round(readUs),
    sealsUs: round(sealsUs),
    rulesUs: round(rulesUs),
    validateUs: round(validateUs),
    readAndValidateUs: round(readAndValidateUs),
    importAddsUs: round(readAndValidateUs - readUs),
    validatePerSecond: Math.round(1e6 / validateUs),
    readAndValidatePerSecond: Math.round(1e6 / readAndValidateUs),
    outcomes,
  };
}

/** The figures as run.ts reports them. */
export async function cfdiValidateSection(report: (key: string, value: string | number) => void, seconds = 3): Promise<void> {
  const f = await cfdiValidateFigures(seconds);
  report('cfdi-validate-files', `${f.files} (${f.averageBytes} B average)`);
  report('cfdi-read-us', f.readUs);
  report('cfdi-validate-seals-us', f.sealsUs);
  report('cfdi-validate-rules-us', f.rulesUs);
  report('cfdi-validate-us', f.validateUs);
  report('cfdi-read-and-validate-us', f.readAndValidateUs);
  report('cfdi-validate-import-adds-us', f.importAddsUs);
  report('cfdi-validate-per-s-per-core', f.validatePerSecond);
  report('cfdi-read-and-validate-per-s-per-core', f.readAndValidatePerSecond);
  report('cfdi-validate-outcomes', Object.entries(f.outcomes).map(([k, n]) => `${n} ${k}`).join('; '));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--seconds');
  const seconds = at >= 0 ? Math.max(1, Number(process.argv[at + 1]) || 3) : 3;
  await cfdiValidateSection((k, v) => console.log(`${k}: ${v}`), seconds);
}

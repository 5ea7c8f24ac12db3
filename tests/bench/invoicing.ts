// Invoicing benchmark: invoices built, sealed, stamped and rendered to PDF per second (goal ≥ 100/s), the
// way the invoice job makes them: a merchant ticket's CfdiInput (invoiceInput), sealed with the demo
// merchants' CSD, stamped by the sandbox PAC, and printed on the PDF pool's worker threads (as the job
// does: src/server/cfdi/pdf-pool.ts). Each invoice is a distinct document (its own folio and receiver), so
// no cache helps. Prints "invoicing-per-s: N" (wall clock, the pool on every core), then the same on one
// thread with the PDF in-process ("invoicing-one-thread-per-s", and "invoicing-per-cpu-s" per second of
// this process's CPU time: steadier on a shared machine) and the ms each stage took on that thread.
// Run: npx tsx tests/bench/invoicing.ts [--seconds S]
import { pathToFileURL } from 'node:url';
import { availableParallelism } from 'node:os';
import { renderCfdiPdf } from '../../src/server/cfdi/pdf';
import { PdfPool } from '../../src/server/cfdi/pdf-pool';
import { readCfdi } from '../../src/server/cfdi/read';
import { SandboxPac } from '../../src/server/cfdi/sandbox-pac';
import { openTestCsd, sealCfdi } from '../../src/server/cfdi/seal';
import type { MerchantTicketItem } from '../../src/server/db/schema';
import { invoiceInput } from '../../src/server/invoicing/build-invoice';
import type { Issuer, MerchantTicketRow } from '../../src/server/invoicing/ports';
import { ticketAmounts } from '../../src/server/merchants/merchant-tickets';

const ISSUER: Issuer = {
  id: 4, shortName: 'copexa', name: 'Copexa', logo: '/merchants/copexa.svg', rfc: 'EKU9003173C9',
  legalName: 'COMERCIALIZADORA DE PAPELERIA Y EXPENDIOS DE OCCIDENTE', taxRegime: '601', postalCode: '44100',
};
const ITEMS: MerchantTicketItem[] = [
  { description: 'Cuaderno profesional raya', quantity: '3', unit_price: '45.50', clave_prod_serv: '14111514', clave_unidad: 'H87', iva: 'IVA16' },
  { description: 'Plumas de gel (caja con 12)', quantity: '2', unit_price: '89.90', clave_prod_serv: '44121701', clave_unidad: 'H87', iva: 'IVA16' },
  { description: 'Libro de texto', quantity: '1', unit_price: '320.00', clave_prod_serv: '55101500', clave_unidad: 'H87', iva: 'IVA0' },
  { description: 'Engargolado', quantity: '1', unit_price: '35.00', clave_prod_serv: '82121500', clave_unidad: 'E48', iva: 'IVA16' },
];

function ticket(n: number, issuedAt: Date): MerchantTicketRow {
  return {
    id: `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`, companyId: ISSUER.id, ref: `BENCH${String(n).padStart(11, '0')}`,
    ticketNumber: `F${String(n).padStart(9, '0')}`, venue: '', postalCode: '44100', issuedAt, items: ITEMS, ...ticketAmounts(ITEMS),
    formaPago: '04', checkCode: 'ABC123', invoiceRequestId: null, createdAt: issuedAt,
  };
}

export interface InvoicingBench {
  perSecond: number;
  /** Per second of this process's CPU time: what one free core gives, whatever else the machine runs. */
  perCpuSecond: number;
  invoices: number;
  /** Share of the time per stage, in ms per invoice. */
  msPerStage: { build_seal: number; stamp: number; pdf: number };
}

export async function invoicesPerSecond(seconds = 3): Promise<InvoicingBench> {
  const csd = openTestCsd('EKU9003173C9');
  const now = new Date();
  const pac = new SandboxPac({ now: () => now });
  const stage = { build_seal: 0, stamp: 0, pdf: 0 };
  let n = 0;
  const one = async () => {
    n++;
    const t0 = performance.now();
    const input = invoiceInput({
      requestId: `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`,
      issuer: ISSUER,
      receiver: { rfc: 'XIQB891116QE4', nombre: 'BERENICE XIMO QUEZADA', codigo_postal: '88965', regimen_fiscal: '612', uso_cfdi: n % 2 ? 'G03' : 'G01' },
      tickets: [ticket(n, new Date(now.getTime() - 86_400_000))],
      now: new Date(now.getTime() - 60_000),
    });
    const sealed = sealCfdi(input, csd);
    const t1 = performance.now();
    const stamped = await pac.stamp(sealed.xml);
    const t2 = performance.now();
    const bytes = new TextEncoder().encode(stamped.xml);
    const read = readCfdi(bytes);
    if (!read.ok) throw new Error(read.reason);
    const pdf = await renderCfdiPdf(bytes, read.cfdi);
    if (pdf.byteLength < 1000) throw new Error('empty PDF');
    const t3 = performance.now();
    stage.build_seal += t1 - t0;
    stage.stamp += t2 - t1;
    stage.pdf += t3 - t2;
  };
  const warmUntil = performance.now() + 1000;
  while (performance.now() < warmUntil) await one();
  n = 0;
  stage.build_seal = stage.stamp = stage.pdf = 0;
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const until = start + seconds * 1000;
  while (performance.now() < until) await one();
  const elapsed = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const per = (ms: number) => Math.round((ms / n) * 100) / 100;
  return { perSecond: Math.round(n / elapsed), perCpuSecond: Math.round(n / cpuSeconds), invoices: n, msPerStage: { build_seal: per(stage.build_seal), stamp: per(stage.stamp), pdf: per(stage.pdf) } };
}

/** The job's way: build, seal and stamp here, the PDF on the pool; `workers * 2` invoices in flight. */
export async function pooledInvoicesPerSecond(seconds = 3, workers = Math.min(4, availableParallelism())): Promise<number> {
  const csd = openTestCsd('EKU9003173C9');
  const now = new Date();
  const pac = new SandboxPac({ now: () => now });
  const pool = new PdfPool(workers);
  let n = 0;
  const one = async () => {
    const k = ++n;
    const input = invoiceInput({
      requestId: `00000000-0000-7000-9000-${String(k).padStart(12, '0')}`,
      issuer: ISSUER,
      receiver: { rfc: 'XIQB891116QE4', nombre: 'BERENICE XIMO QUEZADA', codigo_postal: '88965', regimen_fiscal: '612', uso_cfdi: k % 2 ? 'G03' : 'G01' },
      tickets: [ticket(k, new Date(now.getTime() - 86_400_000))],
      now: new Date(now.getTime() - 60_000),
    });
    const stamped = await pac.stamp(sealCfdi(input, csd).xml);
    const pdf = await pool.render(new TextEncoder().encode(stamped.xml));
    if (pdf.byteLength < 1000) throw new Error('empty PDF');
  };
  const run = async (until: number) => {
    const lanes = Array.from({ length: workers * 2 }, async () => {
      while (performance.now() < until) await one();
    });
    await Promise.all(lanes);
  };
  try {
    await run(performance.now() + 1500); // starts the workers and warms them
    n = 0;
    const start = performance.now();
    await run(start + seconds * 1000);
    return Math.round(n / ((performance.now() - start) / 1000));
  } finally {
    await pool.close();
  }
}

/** For tests/bench/run.ts: reports the figures under the same keys as the stand-alone run prints. */
export async function invoicingSection(deps: { report: (key: string, value: string | number) => void; seconds?: number }): Promise<void> {
  deps.report('invoicing-per-s', await pooledInvoicesPerSecond(deps.seconds));
  deps.report('invoicing-workers', Math.min(4, availableParallelism()));
  const r = await invoicesPerSecond(deps.seconds);
  deps.report('invoicing-one-thread-per-s', r.perSecond);
  deps.report('invoicing-per-cpu-s', r.perCpuSecond);
  deps.report('invoicing-ms-build-seal', r.msPerStage.build_seal);
  deps.report('invoicing-ms-stamp', r.msPerStage.stamp);
  deps.report('invoicing-ms-pdf', r.msPerStage.pdf);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--seconds');
  const seconds = at >= 0 ? Math.max(1, Number(process.argv[at + 1]) || 3) : 3;
  await invoicingSection({ report: (k, v) => console.log(`${k}: ${v}`), seconds });
}

// The demo's CFDI: real CFDI 4.0, built, sealed with SAT's public test CSDs and
// stamped by the sandbox PAC, between the demo's two accounts — the school (EKU9003173C9) bills
// Berenice's (XIQB891116QE4) monthly tuition, and Berenice bills the school for her accounting work.
// Each CFDI is a receipt in both accounts, as when both import it, in the books the import gives it
// (cfdi/books.ts: spending for the receiver, income for the issuer, status 'facturado'). So archives, e-mails, exports and the PDF/XML
// links show real files from the first start. Written once (its own marker, so a data directory made
// before this existed gets them too).
import { and, eq, inArray } from 'drizzle-orm';
import { newIdAt } from '../../domain/ids';
import { mexicoCityDate, mexicoCityMidnight } from '../../domain/mexico-time';
import { TICKET_TYPE } from '../../domain/ticket';
import { IVA_16, IVA_EXENTO, type CfdiInput } from '../cfdi/build';
import { issueSandboxCfdi } from '../cfdi/issue';
import { readCfdi } from '../cfdi/read';
import { openTestCsd, type TestCsdName } from '../cfdi/seal';
import type { Db } from '../db/client';
import { clients, settings, tickets, users } from '../db/schema';
import { DEMO_RFCS, DEMO_USER } from '../db/demo-accounts';
import type { FileStore } from '../files/file-store';
import { factsFromCfdi, saveReceipt } from '../cfdi/receipts';
import { bookAmount, booksInstant, sidesOf, ticketRowOf } from '../cfdi/books';

export const DEMO_INVOICES_MARKER = 'demo_invoices_v1';
const HOUR = 3_600_000;

const SCHOOL = { rfc: DEMO_RFCS.empresa.rfc, nombre: 'ESCUELA KEMPER URGATE', regimen: '601', cp: '42501' };
const BERENICE = { rfc: DEMO_RFCS.persona.rfc, nombre: 'BERENICE XIMO QUEZADA', regimen: '612', cp: '88965' };

export interface DemoInvoice {
  /** Who issues it: the CSD that seals it. */
  issuer: TestCsdName;
  input: CfdiInput;
  /** Spending category of the receiver, income category of the issuer. */
  expenseTag: number;
  incomeTag: number;
}

/** The demo's invoices from January of `now`'s year to `now` (Mexico City calendar): pure. */
export function demoInvoices(now: Date): DemoInvoice[] {
  const { year, month, day } = mexicoCityDate(now);
  const out: DemoInvoice[] = [];
  const at = (m: number, d: number, hour: number) => new Date(mexicoCityMidnight(year, m, d).getTime() + hour * HOUR);
  for (let m = 1; m <= month; m++) {
    const mm = String(m).padStart(2, '0');
    if (m < month || day >= 5) {
      out.push({
        issuer: 'EKU9003173C9',
        expenseTag: 12, // Educación
        incomeTag: 3, // Ventas
        input: {
          serie: 'COL',
          folio: `${year}${mm}`,
          fecha: at(m, 5, 9.5),
          formaPago: '03',
          metodoPago: 'PUE',
          tipoDeComprobante: 'I',
          lugarExpedicion: SCHOOL.cp,
          emisor: { rfc: SCHOOL.rfc, nombre: SCHOOL.nombre, regimenFiscal: SCHOOL.regimen },
          receptor: { rfc: BERENICE.rfc, nombre: BERENICE.nombre, domicilioFiscalReceptor: BERENICE.cp, regimenFiscalReceptor: BERENICE.regimen, usoCfdi: 'D10' },
          conceptos: [
            // Tuition is exempt from IVA (LIVA art. 15-XII).
            { claveProdServ: '86121500', cantidad: '1', claveUnidad: 'E48', unidad: 'Servicio', descripcion: `Colegiatura de ${mm}/${year} — primaria`, valorUnitario: '3450.00', objetoImp: '02', traslados: [IVA_EXENTO] },
          ],
        },
      });
    }
    if (m < month || day >= 20) {
      out.push({
        issuer: 'XIQB891116QE4',
        expenseTag: 18, // Honorarios profesionales
        incomeTag: 2, // Honorarios
        input: {
          serie: 'H',
          folio: String(m),
          fecha: at(m, 20, 17),
          formaPago: '03',
          metodoPago: 'PUE',
          tipoDeComprobante: 'I',
          lugarExpedicion: BERENICE.cp,
          emisor: { rfc: BERENICE.rfc, nombre: BERENICE.nombre, regimenFiscal: BERENICE.regimen },
          receptor: { rfc: SCHOOL.rfc, nombre: SCHOOL.nombre, domicilioFiscalReceptor: SCHOOL.cp, regimenFiscalReceptor: SCHOOL.regimen, usoCfdi: 'G03' },
          conceptos: [
            // A persona física billing a persona moral: 10% ISR and two thirds of the IVA withheld.
            {
              claveProdServ: '84111500', cantidad: '1', claveUnidad: 'E48', unidad: 'Servicio', descripcion: `Servicios de contabilidad de ${mm}/${year}`,
              valorUnitario: '8500.00', objetoImp: '02', traslados: [IVA_16],
              retenciones: [{ impuesto: '001', tipoFactor: 'Tasa', tasaOCuota: '0.100000' }, { impuesto: '002', tipoFactor: 'Tasa', tasaOCuota: '0.106667' }],
            },
          ],
        },
      });
    }
  }
  return out;
}

/** Issues the demo's invoices and files them in both accounts, once. Answers how many CFDI were made. */
export async function seedDemoInvoices(db: Db, files: FileStore, now: Date = new Date()): Promise<number> {
  const [done] = await db.select({ key: settings.key }).from(settings).where(eq(settings.key, DEMO_INVOICES_MARKER));
  if (done) return 0;
  const owners = await db
    .select({ userId: users.id, clientId: clients.id, rfc: clients.rfc })
    .from(clients)
    .innerJoin(users, eq(users.id, clients.userId))
    .where(and(eq(users.username, DEMO_USER.username), inArray(clients.rfc, [SCHOOL.rfc, BERENICE.rfc])));
  const ownerOf = new Map(owners.map((o) => [o.rfc, o]));
  if (ownerOf.size < 2) return 0;
  const claimed = await db
    .insert(settings)
    .values({ key: DEMO_INVOICES_MARKER, value: { at: now.toISOString() } })
    .onConflictDoNothing()
    .returning({ key: settings.key });
  if (claimed.length === 0) return 0;

  const csds = new Map<TestCsdName, ReturnType<typeof openTestCsd>>();
  const csdOf = (name: TestCsdName) => csds.get(name) ?? csds.set(name, openTestCsd(name)).get(name)!;
  let made = 0;
  for (const invoice of demoInvoices(now)) {
    const issued = await issueSandboxCfdi(invoice.input, csdOf(invoice.issuer), { at: invoice.input.fecha as Date });
    const xml = new TextEncoder().encode(issued.xml);
    const read = readCfdi(xml);
    if (!read.ok) throw new Error(`CFDI de demostración ilegible: ${read.reason}`);
    const facts = factsFromCfdi(read.cfdi);
    const book = bookAmount(read.cfdi);
    const receivedAt = booksInstant(read.cfdi);
    if (!book || Number.isNaN(receivedAt.getTime())) throw new Error('CFDI de demostración sin importe o fecha');
    const accounts = new Map(owners.map((o) => [o.rfc, [o.clientId]]));
    const receiptOf = new Map<number, string>();
    for (const side of sidesOf(read.cfdi, accounts)) {
      const owner = owners.find((o) => o.clientId === side.clientId)!;
      let receiptId = receiptOf.get(side.clientId);
      if (!receiptId) {
        receiptId = (await saveReceipt(db, files, { userId: owner.userId, clientId: owner.clientId, facts, xml })).id;
        receiptOf.set(side.clientId, receiptId);
      }
      const expense = side.type === TICKET_TYPE.expense;
      await db.insert(tickets).values(
        ticketRowOf(read.cfdi, {
          id: newIdAt(receivedAt.getTime()),
          userId: owner.userId,
          side,
          receiptId,
          receivedAt,
          book,
          metaTagId: expense ? invoice.expenseTag : null,
          incomeMetaTagId: expense ? null : invoice.incomeTag,
          now: receivedAt,
        }),
      );
    }
    made++;
  }
  return made;
}

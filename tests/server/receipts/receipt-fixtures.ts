// Receipts for the API tests: a real CFDI from tests/fixtures/cfdi stored behind a ticket, as the import
// and invoicing do, with an imported PDF so the archive holds known bytes.
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { clients, tickets } from '../../../src/server/db/schema';
import { saveReceipt, type ReceiptFacts } from '../../../src/server/cfdi/receipts';
import type { Harness } from '../helpers/harness';
import type { Owner } from '../tickets/ticket-fixtures';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/cfdi', import.meta.url));
export const fixtureXml = (name: string) => new Uint8Array(readFileSync(resolve(FIXTURES, name)));

/** A tiny but well-formed PDF whose text names the UUID, so each receipt's PDF is distinguishable. */
export function tinyPdf(label: string): Uint8Array {
  return new TextEncoder().encode(`%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\n% ${label}\ntrailer<</Root 1 0 R>>\n%%EOF\n`);
}

export function facts(uuid: string, over: Partial<ReceiptFacts> = {}): ReceiptFacts {
  return {
    uuid,
    version: '4.0',
    rfcIssuer: 'EKU9003173C9',
    nameIssuer: 'ESCUELA KEMPER URGATE',
    rfcReceiver: 'GODE561231GR8',
    nameReceiver: 'EMMA GOMEZ DIAZ',
    emissionDate: '2026-07-07T10:00:00',
    total: '1160.00',
    currency: 'MXN',
    amountMxn: '1160.00',
    impTras: '160.00',
    impRet: '0.00',
    metodoPago: 'PUE',
    numCtaPago: '',
    ...over,
  };
}

/** Stores the CFDI for the owner's account and points the ticket at it; answers the receipt id. */
export async function attachReceipt(
  h: Harness,
  o: Owner,
  ticketId: string,
  opts: { uuid: string; xml?: Uint8Array; pdf?: Uint8Array | null; facts?: Partial<ReceiptFacts> },
): Promise<string> {
  const db = h.database.db;
  const [client] = await db.select({ id: clients.id }).from(clients).where(and(eq(clients.userId, o.userId), eq(clients.rfc, o.rfc)));
  if (!client) throw new Error('sin cuenta');
  const { id } = await saveReceipt(db, h.files, {
    userId: o.userId,
    clientId: client.id,
    facts: facts(opts.uuid, opts.facts),
    xml: opts.xml ?? fixtureXml('cfdi40-ingreso-eku-descuento-stamped.xml'),
    pdf: opts.pdf === null ? undefined : (opts.pdf ?? tinyPdf(opts.uuid)),
  });
  await db.update(tickets).set({ receiptId: id }).where(eq(tickets.id, ticketId));
  return id;
}

// 'Compartir' (spec §5, §7 send receipts by email) against a real SMTP server: the recipient and the
// user's copy get the PDF and XML of each receipt; bad addresses, refusals and a dead server are told.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { smtpMailer } from '../../../src/server/mail/mailer';
import { mailMessages, receipts, tickets } from '../../../src/server/db/schema';
import { createHarness, DRIVERS, type Harness } from '../helpers/harness';
import { attachmentOf, decodedText, startSmtp, type TestSmtp } from '../helpers/smtp';
import { createEntry, income, ownerWithRfc, spending, type Owner } from '../tickets/ticket-fixtures';
import { attachReceipt, fixtureXml, tinyPdf } from './receipt-fixtures';

const UUID_A = '11111111-2222-4333-8444-555555555555';
const UUID_B = '22222222-2222-4333-8444-555555555555';
const UUID_C = '33333333-2222-4333-8444-555555555555';
const UUID_D = '44444444-2222-4333-8444-555555555555';
const UUID_E = '55555555-2222-4333-8444-555555555555';

const shareBody = (email: unknown, tickets: string[], message = '') => ({
  email: { email },
  tickets: tickets.map((ticket_id) => ({ ticket_id })),
  from: { name: 'Emma', message },
});

describe.each(DRIVERS)('sharing receipts by e-mail on %s', (driver) => {
  let smtp: TestSmtp;
  let h: Harness;
  let a: Owner;
  let email: string;
  let b: Owner;
  const ids = {} as Record<'one' | 'two' | 'plain' | 'others', string>;
  const xml = fixtureXml('cfdi40-ingreso-eku-descuento-stamped.xml');

  beforeAll(async () => {
    smtp = await startSmtp();
    h = await createHarness(driver, { devTools: false }, { mailer: smtpMailer(smtp.url) });
    a = await ownerWithRfc(h);
    b = await ownerWithRfc(h);
    ids.one = (await createEntry(h, a, spending({ date: '2026/07/07', amount: '1160' }))).id;
    ids.two = (await createEntry(h, a, spending({ date: '2026/07/08', amount: '58.50' }))).id;
    ids.plain = (await createEntry(h, a, spending({ date: '2026/07/09' }))).id;
    email = (await h.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${a.rfc}&date[year]=2026&date[month]=7`, { token: a.token })).json.response.tickets[0].username + '@example.com';
    ids.others = (await createEntry(h, b, spending({ date: '2026/07/09' }))).id;
    await attachReceipt(h, a, ids.one, { uuid: UUID_A, xml });
    await attachReceipt(h, a, ids.two, { uuid: UUID_B, facts: { amountMxn: '58.50' } });
    await attachReceipt(h, b, ids.others, { uuid: UUID_A });
  });
  afterAll(async () => {
    await h?.close();
    await smtp?.close();
  });

  const share = (body: unknown, token = a.token) => h.call('POST', '/api/v2/send_receipt_email', { token, body });

  it('sends one message to the recipient with a copy to the user, PDF and XML of each receipt attached', async () => {
    smtp.received.length = 0;
    const r = await share(shareBody('  Contador@Ejemplo.MX ', [ids.one, ids.two, ids.plain], 'Las facturas de julio.\nSaludos'));
    expect(r.status).toBe(200);
    expect(r.json.response).toEqual({ sent: true });
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail!.to.sort()).toEqual(['contador@ejemplo.mx', email].sort());
    expect(mail!.raw).toMatch(/^Cc: .*@example\.com/m);
    expect(mail!.raw).toMatch(/^Reply-To: .*@example\.com/m);
    expect(mail!.raw).toContain('Las facturas de julio.');
    expect(new Uint8Array(attachmentOf(mail!.raw, `EKU9003173C9_${UUID_A}.xml`)!)).toEqual(xml);
    expect(new Uint8Array(attachmentOf(mail!.raw, `EKU9003173C9_${UUID_B}.pdf`)!)).toEqual(tinyPdf(UUID_B));
    expect(attachmentOf(mail!.raw, `EKU9003173C9_${UUID_A}.pdf`)).not.toBeNull();
    expect(attachmentOf(mail!.raw, `EKU9003173C9_${UUID_B}.xml`)).not.toBeNull();
    // Two receipts, $1,218.50 of spending (the ticket without a receipt is left out).
    expect(decodedText(mail!.raw)).toContain('te envía 2 facturas: gastos por $1,218.50.');
  });

  it('states spending and income apart, a credit note subtracting, a payment complement adding nothing', async () => {
    const db = h.database.db;
    const earned = (await createEntry(h, a, income({ date: '2026/07/10', amount: '500' }))).id;
    const credit = (await createEntry(h, a, spending({ date: '2026/07/11', amount: '116' }))).id;
    const paid = (await createEntry(h, a, spending({ date: '2026/07/12', amount: '19228.88' }))).id;
    await attachReceipt(h, a, earned, { uuid: UUID_C });
    await attachReceipt(h, a, credit, { uuid: UUID_D });
    await attachReceipt(h, a, paid, { uuid: UUID_E });
    // As the books keep them: the credit note's tipo E and negative amount, the payment complement's tipo P.
    await db.update(receipts).set({ tipo: 'E' }).where(eq(receipts.uuid, UUID_D));
    await db.update(tickets).set({ amount: '-116.00' }).where(eq(tickets.id, credit));
    await db.update(receipts).set({ tipo: 'P' }).where(eq(receipts.uuid, UUID_E));
    smtp.received.length = 0;
    const r = await share(shareBody('contador@ejemplo.mx', [ids.one, ids.two, earned, credit, paid]));
    expect(r.status).toBe(200);
    const text = decodedText(smtp.received[0]!.raw);
    // 1,160.00 + 58.50 − 116.00 of spending; the 500.00 of income never added to it.
    expect(text).toContain('te envía 5 facturas: gastos por $1,102.50 e ingresos por $500.00.');
    expect(text).not.toContain('1,602.50');
  });

  it('needs a valid recipient (spec §5) and at least one receipt of the caller', async () => {
    smtp.received.length = 0;
    for (const [to, message] of [
      ['', MSG.shareEmailRequired],
      ['   ', MSG.shareEmailRequired],
      [undefined, MSG.shareEmailRequired],
      ['sin-arroba.mx', MSG.emailInvalid],
      ['a@b', MSG.emailInvalid],
      ['x@y.mx\r\nBcc: victima@z.mx', MSG.emailInvalid],
    ] as const) {
      const r = await share(shareBody(to, [ids.one]));
      expect(r.status, String(to)).toBe(400);
      expect(r.json.errors).toEqual([message]);
    }
    const none = await share(shareBody('contador@ejemplo.mx', [ids.plain]));
    expect(none.status).toBe(422);
    expect(none.json.errors).toEqual([MSG.archiveNoReceipts]);
    // Another user's ticket is the same as no receipt at all: nothing of theirs is sent.
    const theirs = await share(shareBody('contador@ejemplo.mx', [ids.others]));
    expect(theirs.status).toBe(422);
    expect(theirs.json.errors).toEqual([MSG.archiveNoReceipts]);
    const empty = await share(shareBody('contador@ejemplo.mx', []));
    expect(empty.json.errors).toEqual([MSG.archiveNoReceipts]);
    const long = await share(shareBody('contador@ejemplo.mx', [ids.one], 'x'.repeat(1001)));
    expect(long.json.errors).toEqual([MSG.shareMessageTooLong]);
    expect(smtp.received).toHaveLength(0);
  });

  it('tells the user when the server refuses the recipient, or only their copy', async () => {
    smtp.received.length = 0;
    smtp.refuse.add('rebota@ejemplo.mx');
    const refused = await share(shareBody('rebota@ejemplo.mx', [ids.one]));
    expect(refused.status).toBe(502);
    expect(refused.json.errors).toEqual([MSG.generic]);
    smtp.refuse.clear();
    smtp.refuse.add(email.toLowerCase());
    const copy = await share(shareBody('contador@ejemplo.mx', [ids.one]));
    smtp.refuse.clear();
    expect(copy.status).toBe(502);
    expect(copy.json.errors).toEqual([MSG.shareCopyFailed]);
    expect(smtp.received.at(-1)!.to).toEqual(['contador@ejemplo.mx']);
  });

  it('answers the generic failure when the mail server is down', async () => {
    const down = await createHarness(driver, { devTools: false }, { mailer: smtpMailer('smtp://127.0.0.1:9') });
    try {
      const o = await ownerWithRfc(down);
      const id = (await createEntry(down, o, spending({ date: '2026/07/07' }))).id;
      await attachReceipt(down, o, id, { uuid: UUID_A });
      const r = await down.call('POST', '/api/v2/send_receipt_email', { token: o.token, body: shareBody('contador@ejemplo.mx', [id]) });
      expect(r.status).toBe(502);
      expect(r.json.errors).toEqual([MSG.generic]);
    } finally {
      await down.close();
    }
  });

  it('limits how often one user can send', async () => {
    const limited = await createHarness(driver);
    try {
      const o = await ownerWithRfc(limited);
      const id = (await createEntry(limited, o, spending({ date: '2026/07/07' }))).id;
      await attachReceipt(limited, o, id, { uuid: UUID_A });
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) {
        statuses.push((await limited.call('POST', '/api/v2/send_receipt_email', { token: o.token, body: shareBody('contador@ejemplo.mx', [id]) })).status);
      }
      expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
      expect(statuses[20]).toBe(429);
      // With the dev mailbox, the message and its attachments are kept to look at.
      const kept = await limited.database.db.select().from(mailMessages);
      const shared = kept.filter((m) => m.to === 'contador@ejemplo.mx');
      expect(shared).toHaveLength(20);
      expect(shared[0]!.attachments.map((f) => f.filename).sort()).toEqual([`EKU9003173C9_${UUID_A}.pdf`, `EKU9003173C9_${UUID_A}.xml`]);
    } finally {
      await limited.close();
    }
  });
});

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../src/domain/messages';
import { ATTACHMENT_MAX_BYTES } from '../../../src/domain/spending-form';
import { tickets } from '../../../src/server/db/schema';
import { receiptPng } from '../../../src/server/demo/png';
import { DRIVERS, type Harness } from '../helpers/harness';
import { harnessWithOwner } from './owner-setup';
import { createEntry, pngOfSize, spending, uploadImage, type Owner } from './ticket-fixtures';

const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
const GIF = new TextEncoder().encode('GIF89a\x01\x00\x01\x00\x00\x00\x00;');
const WEBP = Uint8Array.from([...new TextEncoder().encode('RIFF'), 26, 0, 0, 0, ...new TextEncoder().encode('WEBPVP8 ')]);

describe.each(DRIVERS)('ticket images on %s', (driver) => {
  let h: Harness;
  let a: Owner;
  let ticketId: string;
  harnessWithOwner(driver, async (setup) => {
    ({ h, a } = setup);
    ticketId = (await createEntry(h, a, spending({ date: '2026/07/07' }))).id;
  });

  const imageOf = (id: string, token: string) => h.app.request(`/api/v2/ticket_image?ticket_id=${id}&access_token=${token}`);

  it('stores an image and serves it back by access_token with its real type', async () => {
    const png = receiptPng(() => 0.5);
    const r = await uploadImage(h, a.token, ticketId, png, { name: 'foto del ticket.png' });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    const res = await imageOf(ticketId, a.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(png);
    const [row] = await h.database.db.select().from(tickets).where(eq(tickets.id, ticketId));
    expect(row).toMatchObject({ imageType: 'image/png', imageSize: png.byteLength });
    // The key is the server's own, never the uploaded name.
    expect(row?.imageKey).toMatch(new RegExp(`^ticket-images/${ticketId}/[0-9a-f-]{36}\\.png$`));
    const etag = res.headers.get('etag') as string;
    const again = await h.app.request(`/api/v2/ticket_image?ticket_id=${ticketId}&access_token=${a.token}`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('replaces the image on a re-send (harmless), typed by magic bytes whatever the name says', async () => {
    for (const [bytes, type] of [[JPEG, 'image/jpeg'], [GIF, 'image/gif'], [WEBP, 'image/webp']] as const) {
      const r = await uploadImage(h, a.token, ticketId, bytes, { name: 'x.png', type: 'image/png' });
      expect(r.status, type).toBe(204);
      const res = await imageOf(ticketId, a.token);
      expect(res.headers.get('content-type')).toBe(type);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
    }
    const twice = [await uploadImage(h, a.token, ticketId, JPEG), await uploadImage(h, a.token, ticketId, JPEG)];
    expect(twice.map((r) => r.status)).toEqual([204, 204]);
    const list = await h.call('GET', `/api/v2/tickets?usuario[rfc_owner]=${a.rfc}&date[year]=2026&date[month]=7`, { token: a.token });
    expect(list.json.response.tickets[0]).toMatchObject({ ticket_id: ticketId, include_ticket_image: true });
  });

  it('accepts exactly 2 MB', async () => {
    const r = await uploadImage(h, a.token, ticketId, pngOfSize(ATTACHMENT_MAX_BYTES));
    expect(r.status).toBe(204);
    const [row] = await h.database.db.select().from(tickets).where(eq(tickets.id, ticketId));
    expect(row?.imageSize).toBe(ATTACHMENT_MAX_BYTES);
  });

  it('refuses 2 MB + 1 byte with 413, and a large body as soon as Content-Length says so', async () => {
    const before = (await h.database.db.select().from(tickets).where(eq(tickets.id, ticketId)))[0]?.imageKey;
    const r = await uploadImage(h, a.token, ticketId, pngOfSize(ATTACHMENT_MAX_BYTES + 1));
    expect(r.status).toBe(413);
    expect(r.json).toEqual({ errors: [MSG.imageTooLarge] });
    const big = await uploadImage(h, a.token, ticketId, pngOfSize(3 * 1024 * 1024));
    expect(big.status).toBe(413);
    const declared = await h.app.request(`/tickets/${ticketId}/attach_image`, {
      method: 'POST',
      headers: { 'x-access-token': a.token, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(10 * 1024 * 1024) },
      body: '--x--',
    });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ errors: [MSG.imageTooLarge] });
    const after = (await h.database.db.select().from(tickets).where(eq(tickets.id, ticketId)))[0]?.imageKey;
    expect(after).toBe(before);
  });

  it('refuses a text file renamed .png with 415, and a request without the image field', async () => {
    const text = new TextEncoder().encode('esto no es una imagen, solo texto');
    const r = await uploadImage(h, a.token, ticketId, text, { name: 'recibo.png', type: 'image/png' });
    expect(r.status).toBe(415);
    expect(r.json).toEqual({ errors: [MSG.imageNotImage] });
    const fakePdf = await uploadImage(h, a.token, ticketId, new TextEncoder().encode('PDF-1.7 but not really'), { name: 'a.pdf', type: 'application/pdf' });
    expect(fakePdf.status).toBe(415);
    const wrongField = await uploadImage(h, a.token, ticketId, pngOfSize(10), { field: 'image' });
    expect(wrongField.status).toBe(400);
    expect(wrongField.json).toEqual({ errors: [MSG.imageNotImage] });
    const json = await h.call('POST', `/tickets/${ticketId}/attach_image`, { token: a.token, body: { images: [] } });
    expect(json.status).toBe(415);
  });

  it('accepts a PDF receipt, as the new-spending panel allows (spec §5), and serves it back as PDF', async () => {
    const bytes = new TextEncoder().encode('%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
    const r = await uploadImage(h, a.token, ticketId, bytes, { name: 'recibo.pdf', type: 'application/pdf' });
    expect(r.status).toBe(204);
    const got = await h.call('GET', `/api/v2/ticket_image?ticket_id=${ticketId}&access_token=${a.token}`);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toContain('application/pdf');
  });

  it('answers 404 for an unknown ticket, a malformed id, or a ticket without image', async () => {
    expect((await uploadImage(h, a.token, crypto.randomUUID(), pngOfSize(10))).json).toEqual({ errors: [MSG.ticketNotFound] });
    expect((await uploadImage(h, a.token, 'no-es-un-id', pngOfSize(10))).json).toEqual({ errors: [MSG.ticketNotFound] });
    expect((await imageOf(crypto.randomUUID(), a.token)).status).toBe(404);
    expect((await imageOf('nada', a.token)).status).toBe(404);
    const bare = await createEntry(h, a, spending({ date: '2026/07/08' }));
    expect((await imageOf(bare.id, a.token)).status).toBe(404);
  });
});

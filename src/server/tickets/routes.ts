// Ticket endpoints (DESIGN §3): month/year lists (or their monthly totals with action=stats), manual create, update, delete, image attach and read.
import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { FIRST_YEAR } from '../../domain/dates';
import { MSG } from '../../domain/messages';
import { CreateTicketBody, RemoveTicketsBody, UpdateTicketBody } from '../../domain/ticket-schemas';
import { MANUAL_COMPANY_ID } from '../../domain/ticket';
import type { AppEnv, Services } from '../context';
import type { Db } from '../db/client';
import { caller, requireAuth } from '../http/auth';
import { fileReader } from '../http/file-links';
import { ok, okJsonText } from '../http/envelope';
import { fail } from '../http/errors';
import { assertOwnTicket, attachImage, imageFromMultipart, readImage, readUpload, UPLOAD_LIMIT } from './images';
import { monthRange, yearRange } from '../../domain/mexico-time';
import { findTicket, ownTicketsInRangeJson } from '../lib/ticket-json';
import { ownClientId } from '../http/own-account';
import { createTicket, deleteTickets, updateTicket } from './tickets';
import { defineChangesRoute } from './changes';
import { defineRoute } from '../http/route';
import * as R from '../openapi/responses';

const int = (min: number, max: number) =>
  v.pipe(v.string(MSG.badJson), v.transform(Number), v.integer(MSG.badJson), v.minValue(min, MSG.badJson), v.maxValue(max, MSG.badJson));

export const TicketsQuery = v.object({
  usuario: v.object({ rfc_owner: v.pipe(v.string(MSG.rfcInvalid), v.minLength(1, MSG.rfcInvalid), v.maxLength(13, MSG.rfcInvalid)), view: v.optional(v.string()) }, MSG.rfcInvalid),
  date: v.object({ year: int(FIRST_YEAR, 9999), month: v.optional(int(1, 12)) }, MSG.badJson),
  /** `stats`: the 12 monthly totals of date[year] instead of the tickets. */
  action: v.optional(v.string()),
});

const TicketIdParam = v.pipe(v.string(MSG.ticketNotFound), v.uuid(MSG.ticketNotFound));

/** The 12 months' totals of an account (the analytics area's, handed in by the composition root). */
export type MonthlyTotalsOf = (db: Db, clientId: number, year: number) => Promise<unknown>;

/** The merchant branch of POST /form/ticket_create (an invoice request): its body schema, answer and handler. */
export interface FormTicketRequest {
  body: v.GenericSchema;
  response: v.GenericSchema;
  /** Gets the body its own schema validated. */
  handle(c: Context<AppEnv>, body: unknown): Promise<Response>;
}

const CompanyOf = v.object({ company: v.object({ id: v.pipe(v.union([v.number(), v.string()]), v.transform(Number), v.integer()) }) });

/** A body naming a merchant (any company but the manual one) is an invoice request; anything else is read as a manual ticket. */
const isMerchantTicket = (input: unknown): boolean => {
  const parsed = v.safeParse(CompanyOf, input);
  return parsed.success && parsed.output.company.id !== MANUAL_COMPANY_ID;
};

export function ticketRoutes(s: Services, monthlyTotals: MonthlyTotalsOf, formTicket: FormTicketRequest): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s);

  defineRoute(app, {
    method: 'get', path: '/api/v2/tickets', summary: 'Tickets de un RFC propio en un mes de la Ciudad de México (o el año con usuario[view]=annual), del más reciente al más antiguo', tag: 'Tickets', auth: true, response: v.union([R.TicketList, R.Stats]), errors: [404], query: TicketsQuery,
    params: {
      'usuario[rfc_owner]': '*RFC de una cuenta fiscal propia',
      'date[year]': '*Año',
      'date[month]': 'Mes 1-12 (requerido salvo en la vista anual)',
      'usuario[view]': '`annual` para todo el año',
      action: '`stats`: en lugar de los tickets, los totales de gastos e ingresos de cada uno de los 12 meses de date[year]',
    },
  }, auth, async (c, { query: q }) => {
    const annual = q.usuario.view === 'annual';
    if (!annual && q.date.month === undefined) throw fail(400, MSG.badJson);
    const userId = caller(c).userId;
    if (q.action === 'stats') return ok(c, { stats: await monthlyTotals(s.db, await ownClientId(s.db, userId, q.usuario.rfc_owner), q.date.year) });
    const { from, to } = annual ? yearRange(q.date.year) : monthRange(q.date.year, q.date.month as number);
    // The list comes as JSON text (often kept from an earlier request): the body ok() would write, byte for byte.
    const list = await ownTicketsInRangeJson(s.db, userId, q.usuario.rfc_owner, from, to);
    if (list === undefined) throw fail(404, MSG.notFound);
    return okJsonText(c, `{"tickets":${list}}`);
  });

  defineChangesRoute(app, s, auth);

  // One route, two schemas: the body's company picks which one validates it (the document shows both).
  const TicketCreate = v.lazy((input) => (isMerchantTicket(input) ? formTicket.body : CreateTicketBody));
  defineRoute(app, {
    method: 'post', path: '/form/ticket_create', tag: 'Tickets', auth: true, body: TicketCreate, documentedBody: v.union([CreateTicketBody, formTicket.body]),
    response: v.union([R.TicketCreated, formTicket.response]), params: { format: '`json`' },
    summary: 'Registrar un gasto (tipo 2) o ingreso (tipo 4) manual con company[id]=1; con company[id] de un comercio, solicitar la factura del ticket que describen sus campos (crea el ticket "pendiente" y la solicitud; el RFC elegido necesita código postal y régimen fiscal). Idempotente por additional_info.ticket_id',
    errors: [404, 409, 422, 503],
  }, auth, async (c, { body }) => {
    // A merchant's ticket is an invoice request: the invoicing area's, handed in by the composition root.
    if (isMerchantTicket(body)) return formTicket.handle(c, body);
    const ticketId = await createTicket(s.db, caller(c).userId, body as v.InferOutput<typeof CreateTicketBody>, s.clock());
    return ok(c, { ticket: { ticket_id: ticketId } });
  });

  defineRoute(app, { method: 'put', path: '/api/v2/update_ticket', summary: 'Cambiar la categoría, la categoría de ingreso o la nota de un ticket propio', tag: 'Tickets', auth: true, body: UpdateTicketBody, response: R.Ticket, errors: [404] }, auth, async (c, { body }) => {
    const userId = caller(c).userId;
    await updateTicket(s.db, userId, body, s.clock());
    const ticket = await findTicket(s.db, userId, body.ticket.ticket_id);
    if (!ticket) throw fail(404, MSG.ticketNotFound);
    return ok(c, ticket);
  });

  defineRoute(app, { method: 'delete', path: '/api/v2/tickets', summary: 'Eliminar tickets propios', tag: 'Tickets', auth: true, body: RemoveTicketsBody, response: R.Deleted }, auth, async (c, { body }) => {
    return ok(c, { deleted: await deleteTickets(s.db, s.files, caller(c).userId, body.tickets, s.clock()) });
  });

  defineRoute(app, {
    method: 'post', path: '/tickets/{id}/attach_image', summary: 'Adjuntar (o reemplazar) la imagen de un ticket propio: png, jpeg, webp o gif de hasta 2 MB', tag: 'Tickets', auth: true, status: 204, files: ['images[0]'], errors: [404, 413, 415],
    params: { id: '*ticket_id' },
  }, auth, async (c) => {
    const declared = Number(c.req.header('content-length') ?? '0');
    if (declared > UPLOAD_LIMIT) throw fail(413, MSG.imageTooLarge);
    const type = c.req.header('content-type') ?? '';
    if (!type.toLowerCase().startsWith('multipart/form-data')) throw fail(415, MSG.imageNotImage);
    const id = v.safeParse(TicketIdParam, c.req.param('id'));
    if (!id.success) throw fail(404, MSG.ticketNotFound);
    const ticketId = id.output.toLowerCase();
    const userId = caller(c).userId;
    await assertOwnTicket(s.db, userId, ticketId);
    const image = await imageFromMultipart(await readUpload(c.req.raw.body), type);
    await attachImage(s.db, s.files, userId, ticketId, image, s.clock());
    return c.body(null, 204);
  });

  // The session header (or access_token, for other API clients), or a signed link the app asked for.
  defineRoute(app, {
    method: 'get', path: '/api/v2/ticket_image', summary: 'La imagen de un ticket propio (con el token, o con `link`: un enlace firmado de POST /api/v3/file_links)', tag: 'Tickets', auth: true, contentType: 'image/*', errors: [404],
    params: { ticket_id: '*ticket_id', link: 'enlace firmado de POST /api/v3/file_links, en lugar del token (vencido: 410)' },
  }, async (c) => {
    const { userId, id } = await fileReader(c, s, 'ticket_image', () => {
      const parsed = v.safeParse(TicketIdParam, c.req.query('ticket_id') ?? '');
      if (!parsed.success) throw fail(404, MSG.notFound);
      return parsed.output.toLowerCase();
    });
    const image = await readImage(s.db, s.files, userId, id);
    const etag = `"${image.key.slice(image.key.lastIndexOf('/') + 1)}"`;
    const headers = {
      'Cache-Control': 'private, no-cache',
      ETag: etag,
      'Content-Disposition': 'inline',
    };
    if (c.req.header('if-none-match') === etag) return c.body(null, 304, headers);
    return c.body(image.bytes, 200, { ...headers, 'Content-Type': image.type, 'Content-Length': String(image.bytes.byteLength) });
  });

  return app;
}

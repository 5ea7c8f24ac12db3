// 'Importar CFDIs' over HTTP (DESIGN §3, spec §7): POST /api/v3/users/{id}/files takes up to 100 files
// (multipart, field `file`, read as it arrives: http/multipart.ts), checks each (2 MB, XML/PDF/ZIP by
// content), stores them (one pack per request, written as they arrive) and records them as 'recibido'
// (store-uploads.ts) within the user's quota (upload-limits.ts), and hands them to the durable import job;
// GET …/files/statuses streams their statuses as server-sent events. An id other than the caller's is a 404, like any other user's data.
import { and, desc, eq, gte, isNull, or, sql } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { MSG } from '../../domain/messages';
import type { AppEnv, Services } from '../context';
import { clients, tickets, uploads } from '../db/schema';
import type { Db } from '../db/client';
import { caller, requireAuth } from '../http/auth';
import { assertCleanPart } from '../http/control-chars';
import { boundaryOf, MultipartError, readMultipart } from '../http/multipart';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { onUploadsChanged } from './changes';
import { inUuids, isUuid } from '../db/value-list';
import { snapshotXmin, writtenSince } from './look-cursor';
import type { ImportQueue } from './queue';
import { FILE_MAX_BYTES, MAX_FILES, UploadIntake } from './store-uploads';
import { QuotaExceeded, storageUsed, uploadLimits } from './upload-limits';
import type { FileEvent } from '../../domain/import-files';
import { defineRoute } from '../http/route';
import * as R from '../openapi/responses';

export { FILE_MAX_BYTES, MAX_FILES };
/** 100 files of 2 MB and their part headers; anything beyond is refused while reading. */
export const REQUEST_LIMIT = MAX_FILES * (FILE_MAX_BYTES + 16 * 1024) + 64 * 1024;
const POLL_MS = 500;
const HEARTBEAT_MS = 15_000;
const RECENT_MS = 86_400_000;
/** How far back each look starts before the previous one: longer than a batch's transaction. */
const OVERLAP_MS = 3_000;
/** Changes arriving faster than this are coalesced into one look. */
const MIN_LOOK_MS = 150;

const viewColumns = {
  id: uploads.id,
  name: uploads.name,
  status: uploads.status,
  reason: uploads.reason,
  parentId: uploads.parentId,
  ticketIds: uploads.ticketIds,
  updatedAt: uploads.updatedAt,
};

type Placed = NonNullable<FileEvent['placed']>;

/**
 * Where the tickets of these uploads went — account (RFC) and Mexico City month, with how many — read in
 * one query per 1,000 tickets (their primary keys), only for the rows about to be sent.
 */
async function placesOf(db: Db, userId: number, rows: readonly { id: string; ticketIds: string[] }[]): Promise<Map<string, Placed>> {
  const ids = [...new Set(rows.flatMap((r) => r.ticketIds))].filter(isUuid);
  const where = new Map<string, { rfc: string; month: string }>();
  for (let i = 0; i < ids.length; i += 5000) {
    const found = await db
      .select({ id: tickets.id, rfc: clients.rfc, month: sql<string>`to_char(${tickets.receivedAt} AT TIME ZONE 'America/Mexico_City', 'YYYY-MM')` })
      .from(tickets)
      .innerJoin(clients, eq(clients.id, tickets.clientId))
      .where(and(inUuids(tickets.id, ids.slice(i, i + 5000)), eq(tickets.userId, userId), isNull(tickets.deletedAt)));
    for (const f of found) where.set(f.id, { rfc: f.rfc, month: f.month });
  }
  const out = new Map<string, Placed>();
  for (const r of rows) {
    const counts = new Map<string, Placed[number]>();
    for (const t of r.ticketIds) {
      const w = where.get(t);
      if (!w) continue;
      const k = `${w.rfc}|${w.month}`;
      const c = counts.get(k) ?? { rfc: w.rfc, month: w.month, count: 0 };
      c.count++;
      counts.set(k, c);
    }
    if (counts.size > 0) out.set(r.id, [...counts.values()].sort((a, b) => (a.month < b.month ? -1 : a.month > b.month ? 1 : a.rfc < b.rfc ? -1 : 1)));
  }
  return out;
}

function ownPath(c: Context<AppEnv>): number {
  const userId = caller(c).userId;
  if (c.req.param('id') !== String(userId)) throw fail(404, MSG.notFound);
  return userId;
}

export function importRoutes(s: Services, queue: ImportQueue | undefined): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s);

  defineRoute(app, {
    method: 'post', path: '/api/v3/users/{id}/files', summary: 'Importar CFDIs: hasta 100 archivos XML, PDF o ZIP de hasta 2 MB cada uno (campo `file`, repetido; `rfc` opcional elige la cuenta). Se importan en segundo plano; el estado de cada uno llega por /files/statuses', tag: 'Importar CFDIs', auth: true, files: ['file'], response: R.UploadedFiles, errors: [404, 413, 415, 422],
    params: { id: '*user_id del usuario que llama' },
  }, auth, async (c) => {
    const userId = ownPath(c);
    if (!queue) throw fail(503, MSG.generic);
    const type = c.req.header('content-type') ?? '';
    if (!type.toLowerCase().startsWith('multipart/form-data')) throw fail(415, MSG.importFileType);
    if (Number(c.req.header('content-length') ?? '0') > REQUEST_LIMIT) throw fail(413, MSG.importTooMany);
    const boundary = boundaryOf(type);
    if (!boundary || !c.req.raw.body) throw fail(400, MSG.badJson);
    const { quotaBytes } = uploadLimits();
    const room = quotaBytes - (await storageUsed(s.db, userId));
    // The body is read as it arrives: each file (at most 2 MB is kept of it) goes to the pack on disk as
    // soon as it is complete, so a request of 100 files never sits whole in memory.
    const intake = new UploadIntake(s, userId, null);
    let rfc: string | null = null;
    let current: { name: string; size: number; chunks: Uint8Array[] } | null = null;
    let field: { chunks: Uint8Array[]; size: number } | null = null;
    try {
      await readMultipart(
        c.req.raw.body,
        boundary,
        {
          part(head) {
            assertCleanPart(head.name, head.filename ?? '');
            if (head.name === 'file' && head.filename !== null) {
              if (intake.count >= MAX_FILES) throw fail(422, MSG.importTooMany);
              current = { name: head.filename, size: 0, chunks: [] };
            } else if (head.name === 'rfc' && head.filename === null) field = { chunks: [], size: 0 };
          },
          data(chunk) {
            const part = current ?? field;
            if (!part) return;
            part.size += chunk.byteLength;
            // Past the limit its bytes are dropped (only its size is counted): it is refused anyway.
            const cap = current ? FILE_MAX_BYTES : 256;
            if (part.size <= cap) part.chunks.push(new Uint8Array(chunk));
            else part.chunks = [];
          },
          async end() {
            const file: { name: string; size: number; chunks: Uint8Array[] } | null = current;
            const text: { chunks: Uint8Array[]; size: number } | null = field;
            current = null;
            field = null;
            if (text) {
              rfc = Buffer.concat(text.chunks).toString('utf8');
              assertCleanPart('rfc', rfc);
            }
            if (!file) return;
            await intake.add({ name: file.name, size: file.size, bytes: file.size > FILE_MAX_BYTES ? null : Buffer.concat(file.chunks) });
            // Stop reading as soon as the accepted files cannot fit the user's quota.
            if (intake.acceptedBytes > room) throw fail(413, MSG.importQuotaExceeded);
          },
        },
        { maxBytes: REQUEST_LIMIT, maxParts: MAX_FILES + 20 },
      );
      if (intake.count === 0) throw fail(400, MSG.importFileType);
      const chosen = (rfc as string | null)?.trim();
      if (chosen) {
        const [row] = await s.db
          .select({ id: clients.id })
          .from(clients)
          .where(and(eq(clients.userId, userId), eq(clients.rfc, chosen.toUpperCase())));
        if (!row) throw fail(422, MSG.importAccountNotFound);
        intake.setClient(row.id);
      }
    } catch (err) {
      await intake.abort();
      if (err instanceof MultipartError) {
        if (err.kind === 'too-large') throw fail(413, MSG.importTooMany);
        if (err.kind === 'too-many-parts') throw fail(422, MSG.importTooMany);
        throw fail(400, MSG.badJson);
      }
      throw err;
    }
    let rows;
    try {
      rows = await intake.finish({ quotaBytes });
    } catch (err) {
      if (err instanceof QuotaExceeded) throw fail(413, MSG.importQuotaExceeded);
      throw err;
    }
    const accepted = rows.filter((r) => r.status === 'recibido').map((r) => r.id);
    if (accepted.length > 0) await queue.enqueue({ userId, uploadIds: accepted });
    return ok(c, { files: rows.map((r) => ({ id: r.id, name: r.name, status: r.status, ...(r.reason ? { reason: r.reason } : {}) })) });
  });

  defineRoute(app, {
    method: 'get', path: '/api/v3/users/{id}/files/statuses', summary: 'Server-sent events: evento `file` con {id,name,status,reason,parent_id,ticket_ids} por cada subida de las últimas 24 h y por cada cambio; comentario de latido cada 15 s (la app lo lee con fetch y el token en el encabezado, nunca en la URL)', tag: 'Importar CFDIs', auth: true, contentType: 'text/event-stream', errors: [404],
    params: { id: '*user_id del usuario que llama', 'ids[]': 'solo estas subidas (y las entradas de esos zips)' },
  }, auth, async (c) => {
    const userId = ownPath(c);
    const url = new URL(c.req.url);
    const ids = [...url.searchParams.getAll('ids[]'), ...url.searchParams.getAll('ids')].filter(isUuid).slice(0, 200);
    const mine = eq(uploads.userId, userId);
    // The filter also shows the entries of the zips asked for.
    const scope = ids.length > 0 ? and(mine, or(inUuids(uploads.id, ids), inUuids(uploads.parentId, ids))) : mine;
    c.header('Cache-Control', 'no-cache, no-transform');
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      const sent = new Map<string, string>();
      let since = new Date(s.clock().getTime() - RECENT_MS);
      let wake: (() => void) | null = null;
      /** A change arrived while we were looking or pausing: look again without waiting. */
      let dirty: boolean;
      const off = onUploadsChanged(userId, () => {
        dirty = true;
        wake?.();
      });
      let closed = false;
      stream.onAbort(() => {
        closed = true;
        wake?.();
      });
      let lastBeat = Date.now();
      /** The snapshot xmin noted before the previous look (look-cursor.ts); null before the first. */
      let seenBefore: string | null = null;
      try {
        while (!closed) {
          // Rows changed since a little before the last look (a slow transaction may commit an older
          // timestamp) and not visible to it (look-cursor.ts): with the cursor these are (nearly) only
          // the changes, so they are read whole at once; the ones already sent as they are are skipped.
          dirty = false;
          const queryFrom = since;
          since = new Date(s.clock().getTime() - OVERLAP_MS);
          const cursor = await snapshotXmin(s.db);
          const rows = await s.db
            .select(viewColumns)
            .from(uploads)
            .where(and(scope, gte(uploads.updatedAt, queryFrom), seenBefore === null ? undefined : writtenSince(seenBefore)))
            .orderBy(uploads.updatedAt, desc(uploads.id))
            .limit(20_000);
          seenBefore = cursor;
          const fresh = rows.filter((r) => sent.get(r.id) !== `${r.status}|${r.updatedAt.getTime()}`);
          const places = await placesOf(s.db, userId, fresh.filter((r) => r.ticketIds.length > 0));
          for (const r of fresh) {
            sent.set(r.id, `${r.status}|${r.updatedAt.getTime()}`);
            const placed = places.get(r.id);
            const view: FileEvent = { id: r.id, name: r.name, status: r.status, reason: r.reason, parent_id: r.parentId, ticket_ids: r.ticketIds, ...(placed ? { placed } : {}) };
            await stream.writeSSE({ event: 'file', id: r.id, data: JSON.stringify(view) });
          }
          if (Date.now() - lastBeat >= HEARTBEAT_MS) {
            await stream.write(': latido\n\n');
            lastBeat = Date.now();
          }
          if (closed) break;
          await new Promise((resolve) => setTimeout(resolve, MIN_LOOK_MS));
          if (closed) break;
          if (dirty) continue;
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, POLL_MS - MIN_LOOK_MS);
            wake = () => {
              clearTimeout(t);
              resolve();
            };
          });
          wake = null;
        }
      } finally {
        off();
      }
    });
  });

  return app;
}

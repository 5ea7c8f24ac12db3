// GET /api/v3/users/{id}/files/statuses (the uploads' live statuses): server-sent events read with
// fetch and a reader, as EventSource would (token as access_token). Another user's uploads never appear.
import { describe, expect, it } from 'vitest';
import { IMPORT_QUEUE, startImportWorker } from '../../../src/server/imports/queue';
import { DRIVERS } from '../helpers/harness';
import { fixture, importEnvPerSuite, settled, upload, userWith, type ImportEnv, type User } from './import-helpers';
import type { FileEvent } from '../../../src/domain/import-files';

const CFDI = 'cfdi40-ingreso-retenciones-sw-stamped.xml';

/** Opens the stream and collects `file` events until `until` says stop (or the time runs out). */
async function readEvents(env: ImportEnv, user: User, until: (events: FileEvent[]) => boolean, opts: { query?: string; whileOpen?: (events: FileEvent[]) => Promise<void> } = {}): Promise<FileEvent[]> {
  const ctrl = new AbortController();
  const res = await env.app.request(`/api/v3/users/${user.userId}/files/statuses?access_token=${encodeURIComponent(user.token)}${opts.query ?? ''}`, { signal: ctrl.signal });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = res.body!.getReader();
  const events: FileEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  // Generous: the first import of a process starts its parse workers, which compile and load their modules
  // from TypeScript (over 25 s seen on a 2-core machine running the rest of the suite beside it).
  const deadline = Date.now() + 60_000;
  const pending = opts.whileOpen?.(events);
  try {
    // A read that loses the race to the 1 s tick is kept for the next turn: reading again would leave
    // its chunk to a promise nobody awaits, and the events in it would be lost.
    let read: ReturnType<typeof reader.read> | null = null;
    while (!until(events) && Date.now() < deadline) {
      read ??= reader.read();
      const chunk = await Promise.race([read, new Promise<null>((r) => setTimeout(() => r(null), 1_000))]);
      if (chunk === null) continue;
      read = null;
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const lines = block.split('\n');
        if (lines.some((l) => l === 'event: file')) {
          const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
          events.push(JSON.parse(data) as FileEvent);
        }
      }
    }
  } finally {
    ctrl.abort();
    await reader.cancel().catch(() => undefined);
    await pending;
  }
  return events;
}

describe.each(DRIVERS)('upload statuses stream on %s', (driver) => {
  let env: ImportEnv;
  importEnvPerSuite(driver, (e) => { env = e; });

  it('shows an upload going from recibido to importado, with its ticket', async () => {
    const user = await userWith(env, ['URE180429TM6']);
    let uploadedId = '';
    const events = await readEvents(env, user, (ev) => ev.some((e) => e.id === uploadedId && e.status === 'importado'), {
      whileOpen: async (seen) => {
        // The worker is paused so the stream's 'recibido' cannot be overtaken; then it resumes.
        await env.boss.offWork(IMPORT_QUEUE);
        const r = await upload(env, user, [{ name: 'factura.xml', bytes: fixture(CFDI) }]);
        uploadedId = r.json.response.files[0].id;
        await expect.poll(() => seen.some((e) => e.id === uploadedId), { timeout: 5_000 }).toBe(true);
        await startImportWorker(env.boss, { db: env.h.database.db, files: env.h.files, clock: () => new Date() });
      },
    });
    const mine = events.filter((e) => e.id === uploadedId);
    expect(mine[0]).toMatchObject({ name: 'factura.xml', status: 'recibido', parent_id: null });
    const last = mine[mine.length - 1]!;
    expect(last).toMatchObject({ status: 'importado', reason: null });
    expect(last.ticket_ids).toHaveLength(1);
  }, 90_000);

  it("starts with the user's recent uploads (ids[] filter optional) and never shows another user's", async () => {
    const a = await userWith(env, ['URE180429TM6']);
    const b = await userWith(env, ['URE180429TM6']);
    const ra = await upload(env, a, [{ name: 'de-a.xml', bytes: fixture(CFDI) }, { name: 'otro-de-a.xml', bytes: fixture(CFDI) }]);
    const rb = await upload(env, b, [{ name: 'de-b.xml', bytes: fixture(CFDI) }]);
    const aIds = (ra.json.response.files as { id: string }[]).map((f) => f.id);
    const bId = rb.json.response.files[0].id as string;
    await settled(env, [...aIds, bId]);
    const seen = await readEvents(env, a, (ev) => aIds.every((id) => ev.some((e) => e.id === id)));
    expect(new Set(seen.map((e) => e.id))).toEqual(new Set(aIds));
    // Asking for B's id by name gives nothing of B's.
    const filtered = await readEvents(env, a, (ev) => ev.length >= 1, { query: `&ids[]=${aIds[0]}&ids[]=${bId}` });
    expect(filtered.map((e) => e.id)).toEqual([aIds[0]]);
    // What is not a UUID in the filter is dropped, never sent to the database.
    const hostile = ['-'.repeat(36), "00000000-0000-0000-0000-00000000000'", 'x'.repeat(36)].map((x) => `&ids[]=${encodeURIComponent(x)}`).join('');
    const kept = await readEvents(env, a, (ev) => ev.length >= 1, { query: `${hostile}&ids[]=${aIds[1]}` });
    expect(kept.map((e) => e.id)).toEqual([aIds[1]]);
    const other = await env.app.request(`/api/v3/users/${b.userId}/files/statuses?access_token=${encodeURIComponent(a.token)}`);
    expect(other.status).toBe(404);
  }, 30_000);
});

// SAT sync HTTP (spec §7 'SAT authenticate' / 'Save SAT password'; the contract is
// src/domain/sat-sync.ts). Every route acts on one of the caller's own accounts: another user's id or an
// RFC that is not theirs is a 404; the SincronizacionSAT gate answers 403; a company RFC 422. Secrets go
// in (sealed at rest, store.ts) and never come out: answers are the Account or the SatSyncStatus.
import { and, eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { MSG } from '../../domain/messages';
import { EFIRMA_FILE_MAX_BYTES, EFIRMA_PARTS, SAT_PASSWORD_MAX, SAT_PASSWORD_MIN, satSyncForRfc } from '../../domain/sat-sync';
import { toAccount, withPaymentHistory } from '../lib/account-view';
import type { AppDeps, AppEnv, Services } from '../context';
import { clients } from '../db/schema';
import { caller, requireAuth } from '../http/auth';
import { readLimited } from '../http/body';
import { assertCleanForm } from '../http/control-chars';
import { ok } from '../http/envelope';
import { fail } from '../http/errors';
import { assertFeature } from '../http/plan-gates';
import { checkFiel, fielTrustFromEnv, type FielTrust } from '../cfdi/efirma-proof';
import { markRfcVerified } from '../lib/rfc-verified';
import { devSatPortalRoutes } from './dev-page';
import { EfirmaError, inspectEfirma } from './port';
import { satSyncRuntime } from './runtime';
import type { DemoIssuer } from './simulated-portal';
import { disconnect, saveCiec, saveEfirma, connectionOf, syncStatus } from './store';
import { mexicoDayBefore } from './sync';
import { Account } from '../openapi/responses';
import { adoptRoutes, defineRoute, pathParam } from '../http/route';

// The OpenAPI descriptions of its answers.
const Tag = 'Sincronización SAT';
const branchParams = { id: '*user_id del usuario que llama', rfc: '*RFC de una cuenta fiscal propia (persona física)' };
const SyncStatus = v.object({
  rfc: v.string(),
  method: v.nullable(v.picklist(['ciec', 'efirma'])),
  methods: v.array(v.picklist(['ciec', 'efirma'])),
  efirma: v.nullable(v.object({ serial: v.string(), valid_until: v.string() })),
  synchronized_at: v.nullable(v.string()),
  last_imported: v.nullable(v.number()),
  last_error: v.nullable(v.string()),
  running: v.boolean(),
});

/** Tries at the SAT password per user (authenticate and save together): a person mistypes, a script guesses. */
export const SAT_AUTH_LIMIT = { limit: 10, windowMs: 15 * 60_000 };
/** A first connection also fetches these last days, so the user sees something at once. */
export const FIRST_SYNC_DAYS = 3;
const EFIRMA_REQUEST_LIMIT = 2 * EFIRMA_FILE_MAX_BYTES + 16 * 1024;

const password = () =>
  v.pipe(v.string(MSG.satPasswordEmpty), v.minLength(1, MSG.satPasswordEmpty), v.minLength(SAT_PASSWORD_MIN, MSG.satPasswordLength), v.maxLength(SAT_PASSWORD_MAX, MSG.satPasswordLength));

export const AuthenticateSatSchema = v.object({ rfc: v.pipe(v.string(MSG.notFound), v.maxLength(13, MSG.notFound)), clave_ciec: password() }, MSG.satPasswordEmpty);
export const SaveSatPasswordSchema = v.object({ sat_password: password() }, MSG.satPasswordEmpty);

type ClientRow = typeof clients.$inferSelect;

function isTrustedFiel(cer: Uint8Array, rfc: string, now: Date, fielTrust: FielTrust): boolean {
  try {
    checkFiel(cer, rfc, now, fielTrust);
    return true;
  } catch {
    return false;
  }
}

export function satSyncRoutes(s: Services, _deps: AppDeps, demoMerchants: readonly DemoIssuer[]): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s);
  const fielTrust = fielTrustFromEnv(s.config.devTools);
  const tries = s.limits('sat-auth', SAT_AUTH_LIMIT.limit, SAT_AUTH_LIMIT.windowMs);
  const runtime = () => satSyncRuntime(s.db, s.clock, demoMerchants);

  const limit = async (userId: number) => {
    const now = s.clock().getTime();
    const key = `user:${userId}`;
    if (!(await tries.take(key, now))) throw fail(429, MSG.satTooManyTries, { 'Retry-After': String(tries.retryAfter(key, now)) });
  };

  /** The caller's own account named by RFC, else 404. */
  const ownClient = async (userId: number, rfc: string): Promise<ClientRow> => {
    const [row] = await s.db
      .select()
      .from(clients)
      .where(and(eq(clients.userId, userId), eq(clients.rfc, rfc.trim().toUpperCase())))
      .limit(1);
    if (!row) throw fail(404, MSG.notFound);
    return row;
  };

  /** :id must be the caller (404 otherwise, like any other user's data), :rfc one of their accounts; then the gate and §5. */
  const branch = async (c: Context<AppEnv>, rfcParam: string): Promise<ClientRow> => {
    const userId = caller(c).userId;
    if (c.req.param('id') !== String(userId)) throw fail(404, MSG.notFound);
    const client = await ownClient(userId, rfcParam);
    await assertFeature(s.db, userId, { clientId: client.id }, 'SincronizacionSAT');
    if (!satSyncForRfc(client.rfc)) throw fail(422, MSG.satCompanyOnly);
    return client;
  };

  const answerAccount = async (c: Context<AppEnv>, clientId: number) => {
    const [row] = await s.db.select().from(clients).where(eq(clients.id, clientId));
    if (!row) throw fail(404, MSG.notFound);
    const [account] = await withPaymentHistory(s.db, [toAccount(row)]);
    return ok(c, account);
  };

  /** Queues the first sync: yesterday, and a few days more for a first connection. */
  const queueFirstSync = async (clientId: number, first: boolean) => {
    const queue = runtime().queue;
    if (!queue) return;
    const now = s.clock();
    const days = Array.from({ length: first ? FIRST_SYNC_DAYS : 1 }, (_, i) => mexicoDayBefore(now, i + 1));
    await queue.enqueue({ clientId, days });
  };

  // Spec §7 'SAT authenticate': is this CIEC the RFC's? 400 with the §8 message when not.
  defineRoute(app, {
    method: 'post', path: '/api/v1/AuthenticateSATPortal', tag: Tag, auth: true, body: AuthenticateSatSchema, errors: [404, 422, 429],
    summary: 'Comprobar la contraseña del SAT (CIEC) de un RFC propio con el portal del SAT configurado. 400 si no es válida; 422 si el portal solo acepta e.firma; 10 intentos por usuario cada 15 minutos',
    response: v.object({ valid: v.literal(true) }),
  }, auth, async (c, { body }) => {
    const userId = caller(c).userId;
    const client = await ownClient(userId, body.rfc);
    const { portal } = runtime();
    if (!portal.methods.includes('ciec')) throw fail(422, MSG.satMethodUnavailable);
    await limit(userId);
    if (!(await portal.authenticate(body.rfc.trim().toUpperCase(), body.clave_ciec))) {
      // The house envelope, plus `error` as the contract names it.
      return c.json({ errors: [MSG.satPasswordInvalid], error: MSG.satPasswordInvalid }, 400);
    }
    // SAT let the holder of this CIEC in: that proves the RFC.
    await markRfcVerified(s.db, client.id, client.rfc, 'sat', s.clock());
    return ok(c, { valid: true });
  });

  // Spec §7 'Save SAT password'. Hono reads ".json" as part of the last segment, so it is matched here.
  defineRoute(app, {
    method: 'put', path: '/api/v3/users/{id}/branches/{rfc}.json', names: { rfc: 'file' }, tag: Tag, auth: true, body: SaveSatPasswordSchema, errors: [403, 404, 422, 429], params: branchParams,
    guard: (c) => branch(c, pathParam(c, 'file').replace(/\.json$/, '')),
    summary: 'Guardar la contraseña del SAT (cifrada; nunca se devuelve): se comprueba con el portal (400 si no es válida), la cuenta queda con ciec=true y se descargan de inmediato los comprobantes de los días anteriores. Requiere SincronizacionSAT (403); solo personas físicas (422)',
    response: Account,
  }, auth, async (c, { body, guard: client }) => {
    const { portal } = runtime();
    if (!portal.methods.includes('ciec')) throw fail(422, MSG.satMethodUnavailable);
    await limit(client.userId);
    if (!(await portal.authenticate(client.rfc, body.sat_password))) throw fail(400, MSG.satPasswordInvalid);
    const first = !(await connectionOf(s.db, client.id));
    await saveCiec(s.db, client.id, body.sat_password, s.clock());
    await markRfcVerified(s.db, client.id, client.rfc, 'sat', s.clock());
    await queueFirstSync(client.id, first);
    return answerAccount(c, client.id);
  });

  defineRoute(app, {
    method: 'put', path: '/api/v3/users/{id}/branches/{rfc}/efirma', tag: Tag, auth: true, files: ['cer', 'key', 'password'], errors: [403, 404, 422, 429], params: branchParams,
    summary: 'Conectar con la e.firma (método oficial de Descarga Masiva): partes `cer`, `key` (hasta 64 KB) y `password`. 422 si no abre, es un CSD, es de otro RFC o está vencida. Responde la cuenta',
    response: Account,
  }, auth, async (c) => {
    const client = await branch(c, pathParam(c, 'rfc'));
    const type = c.req.header('content-type') ?? '';
    if (!type.toLowerCase().startsWith('multipart/form-data')) throw fail(400, MSG.efirmaMissing);
    if (Number(c.req.header('content-length') ?? '0') > EFIRMA_REQUEST_LIMIT) throw fail(413, MSG.efirmaInvalid);
    const raw = c.req.raw.body ? await readLimited(c.req.raw.body, EFIRMA_REQUEST_LIMIT) : new Uint8Array(0);
    if (!raw) throw fail(413, MSG.efirmaInvalid);
    let form: FormData;
    try {
      form = await new Response(raw, { headers: { 'content-type': type } }).formData();
    } catch {
      throw fail(400, MSG.efirmaMissing);
    }
    assertCleanForm(form);
    const cer = form.get(EFIRMA_PARTS.cer);
    const key = form.get(EFIRMA_PARTS.key);
    const pass = form.get(EFIRMA_PARTS.password);
    if (typeof cer === 'string' || typeof key === 'string' || !cer || !key || typeof pass !== 'string' || !pass) throw fail(400, MSG.efirmaMissing);
    if (cer.size > EFIRMA_FILE_MAX_BYTES || key.size > EFIRMA_FILE_MAX_BYTES) throw fail(422, MSG.efirmaInvalid);
    const cerBytes = new Uint8Array(await cer.arrayBuffer());
    const keyBytes = new Uint8Array(await key.arrayBuffer());
    await limit(client.userId);
    let facts;
    try {
      facts = inspectEfirma(client.rfc, cerBytes, keyBytes, pass, s.clock());
    } catch (err) {
      if (err instanceof EfirmaError) throw fail(422, err.message);
      throw err;
    }
    const first = !(await connectionOf(s.db, client.id));
    await saveEfirma(s.db, client.id, cerBytes, keyBytes, pass, facts, s.clock());
    // The key opened and belongs to the FIEL of this RFC: the same proof as RFC verification by e.firma,
    // when its issuer is trusted too (otherwise SAT accepting it in the sync proves it, sync.ts).
    if (isTrustedFiel(cerBytes, client.rfc, s.clock(), fielTrust)) await markRfcVerified(s.db, client.id, client.rfc, 'efirma', s.clock());
    await queueFirstSync(client.id, first);
    return answerAccount(c, client.id);
  });

  defineRoute(app, {
    method: 'delete', path: '/api/v3/users/{id}/branches/{rfc}.json', names: { rfc: 'file' }, tag: Tag, auth: true, errors: [403, 404, 422], params: branchParams,
    summary: 'Desconectar del SAT: borra la contraseña y la e.firma guardadas, ciec=false. Responde la cuenta',
    response: Account,
  }, auth, async (c) => {
    const client = await branch(c, pathParam(c, 'file').replace(/\.json$/, ''));
    await disconnect(s.db, client.id);
    return answerAccount(c, client.id);
  });

  defineRoute(app, {
    method: 'get', path: '/api/v3/users/{id}/branches/{rfc}/sync', tag: Tag, auth: true, errors: [403, 404, 422], params: branchParams,
    summary: 'Estado de la sincronización: método conectado, métodos que acepta el servidor, e.firma (serie y vigencia), última sincronización, comprobantes importados, último error y si hay una en curso',
    response: SyncStatus,
  }, auth, async (c) => {
    const client = await branch(c, pathParam(c, 'rfc'));
    return ok(c, await syncStatus(s.db, client, runtime().portal.methods));
  });

  if (s.config.devTools) {
    const dev = devSatPortalRoutes(s);
    app.route('/', dev);
    adoptRoutes(app, dev);
  }
  return app;
}

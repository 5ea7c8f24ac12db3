// Signed short-lived links to one file (DESIGN §3). A link is `<user id>.<expiry>.<mac>`: the expiry in
// Unix seconds and an HMAC-SHA256 over (kind, user, resource, expiry) under a key derived from the
// server secret (CC_SECRET_KEY or the one kept in settings), so every process checks what any other
// made, with no state. It opens only that file for that user until it expires; it is not, and does not
// reveal, the session token. A link that was altered or made for another file, user or kind is a 404;
// an expired one a 410, never the file.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { FILE_LINK_PARAM, FILE_LINK_TTL_MS, type FileLinkKind } from '../../domain/file-links';
import { MSG } from '../../domain/messages';
import type { AppEnv, Services } from '../context';
import type { Db } from '../db/client';
import { serverSecret } from '../lib/secret-box';
import { authOf } from './auth';
import { fail } from './errors';

const LINK_RE = /^(\d{1,12})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;
const keys = new WeakMap<Db, Promise<Buffer>>();

/** A key of its own, derived from the server secret, so these MACs can never stand for another use of it. */
function linkKey(db: Db): Promise<Buffer> {
  let key = keys.get(db);
  if (!key) {
    key = serverSecret(db).then((secret) => createHmac('sha256', secret).update('cuentas-claras/file-links/v1').digest());
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

function mac(key: Buffer, kind: FileLinkKind, userId: number, resourceId: string, exp: number): Buffer {
  return createHmac('sha256', key).update(`${kind}\n${userId}\n${resourceId.toLowerCase()}\n${exp}`).digest();
}

/** A link for one file of one user, valid FILE_LINK_TTL_MS from `now`. */
export async function signFileLink(db: Db, kind: FileLinkKind, userId: number, resourceId: string, now: Date): Promise<{ link: string; expiresAt: Date }> {
  const exp = Math.floor((now.getTime() + FILE_LINK_TTL_MS) / 1000);
  const sig = mac(await linkKey(db), kind, userId, resourceId, exp).toString('base64url');
  return { link: `${userId}.${exp}.${sig}`, expiresAt: new Date(exp * 1000) };
}

/** The user a link was made for, if it was made by us for this kind and resource; else 404, or 410 once expired. */
export async function checkFileLink(db: Db, link: string, kind: FileLinkKind, resourceId: string, now: Date): Promise<number> {
  const m = LINK_RE.exec(link);
  if (!m) throw fail(404, MSG.fileLinkInvalid);
  const userId = Number(m[1]);
  const exp = Number(m[2]);
  const given = Buffer.from(m[3] ?? '', 'base64url');
  const want = mac(await linkKey(db), kind, userId, resourceId, exp);
  if (given.length !== want.length || !timingSafeEqual(given, want)) throw fail(404, MSG.fileLinkInvalid);
  // Only a genuine link can say it expired: a forged expiry fails the MAC above.
  if (exp * 1000 <= now.getTime()) throw fail(410, MSG.fileLinkExpired);
  return userId;
}

/**
 * Who reads a file route: the holder of a signed link when the query has one (that link alone decides),
 * else the caller's session from any of its four places (401 without one). `resourceId` validates and
 * normalises the route's id (its own 404); it runs after the session check, as before links existed.
 */
export async function fileReader(c: Context<AppEnv>, s: Services, kind: FileLinkKind, resourceId: () => string): Promise<{ userId: number; id: string }> {
  const link = c.req.query(FILE_LINK_PARAM);
  if (link === undefined) {
    const auth = await authOf(c, s);
    if (!auth) throw fail(401, MSG.unauthorized);
    return { userId: auth.userId, id: resourceId() };
  }
  const id = resourceId();
  return { userId: await checkFileLink(s.db, link, kind, id, s.clock()), id };
}

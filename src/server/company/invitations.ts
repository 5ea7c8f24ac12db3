// Join by invitation (spec §3 Invitation, §4 'Join'): the link's token is looked up by its SHA-256, works
// once and expires. Accepting links the collaborator to the user and the RFC they chose, which the company
// may then read (spec §6). Any bad, used or old token answers the §8 message with 404.
import { and, eq, gt, isNotNull } from 'drizzle-orm';
import type { Account } from '../../domain/account';
import type { CreateUserBody } from '../../domain/auth-schemas';
import type { NewClientBody } from '../../domain/client-schemas';
import type { Invitation } from '../../domain/company';
import type { Session } from '../../domain/http';
import { normalizeEmail } from '../../domain/email';
import { MSG } from '../../domain/messages';
import { normalizeRfc } from '../../domain/rfc';
import { hashToken, looksLikeToken } from '../lib/tokens';
import type { Db } from '../db/client';
import { clients, users } from '../db/schema';
import { collaborators } from '../db/schema-company';
import { fail } from '../http/errors';

const invalid = () => fail(404, MSG.invalidPageToken);

/** The pending invitation of `token`, or the §8 404. */
async function pending(db: Db, token: string, now: Date) {
  if (!looksLikeToken(token)) throw invalid();
  const [row] = await db
    .select({ id: collaborators.id, email: collaborators.email, companyClientId: collaborators.companyClientId })
    .from(collaborators)
    .where(
      and(
        eq(collaborators.invitationTokenHash, hashToken(token)),
        eq(collaborators.status, 'invitado'),
        isNotNull(collaborators.invitationExpiresAt),
        gt(collaborators.invitationExpiresAt, now),
      ),
    )
    .limit(1);
  if (!row) throw invalid();
  return row;
}

export async function showInvitation(db: Db, token: string, now: Date): Promise<Invitation> {
  const inv = await pending(db, token, now);
  const [host] = await db.select().from(clients).where(eq(clients.id, inv.companyClientId)).limit(1);
  if (!host) throw invalid();
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, inv.email)).limit(1);
  return {
    email: inv.email,
    registered: Boolean(user),
    company_name: host.name ?? host.rfc,
    host: {
      first_name: host.firstName,
      last_name: host.lastName,
      rfc: host.rfc,
      name: host.name,
      address: {
        street: host.street,
        external_number: host.externalNumber,
        internal_number: host.internalNumber,
        neighborhood: host.neighborhood,
        city: host.city,
        state: host.state,
        country: host.country,
        zip_code: host.zipCode,
      },
    },
  };
}

/**
 * Accepts with one of the user's own tax accounts, when the user's e-mail is the invited one. The update
 * is conditional on the token still being pending, so two accepts racing for one link cannot both win.
 */
export async function acceptInvitation(db: Db, token: string, userId: number, rfc: string, now: Date): Promise<{ collaborator_id: number; client_id: number }> {
  const inv = await pending(db, token, now);
  // Only the invited address may accept: a forwarded or leaked link must not put someone else in the company.
  const [me] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  if (!me || normalizeEmail(me.email) !== normalizeEmail(inv.email)) throw fail(403, MSG.invitationOtherEmail);
  const [own] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.userId, userId), eq(clients.rfc, normalizeRfc(rfc))))
    .limit(1);
  if (!own) throw fail(404, MSG.notFound);
  const [done] = await db
    .update(collaborators)
    .set({ status: 'activo', userId, clientId: own.id, invitationTokenHash: null, invitationExpiresAt: null, acceptedAt: now, updatedAt: now })
    .where(and(eq(collaborators.id, inv.id), eq(collaborators.status, 'invitado'), eq(collaborators.invitationTokenHash, hashToken(token))))
    .returning({ id: collaborators.id });
  if (!done) throw invalid();
  return { collaborator_id: done.id, client_id: own.id };
}

/** What signing up through an invitation needs of the accounts area (handed in by the composition root). */
export interface AccountSignUp {
  registrationProblem(body: CreateUserBody): Promise<string | null>;
  createUser(db: Db, body: CreateUserBody): Promise<{ user_id: number; email: string; username: string }>;
  createClient(db: Db, userId: number, body: NewClientBody): Promise<Account>;
  issueSession(db: Db, userId: number, remember: boolean, now: Date): Promise<string>;
}

export interface SignUpInput {
  user: { username: string; password: string };
  client: NewClientBody['client'];
  ubication_data: NewClientBody['ubication_data'];
}

/**
 * A new user from the invitation: the account (its e-mail is the invited one), the tax client, the
 * acceptance, then a session. No captcha: the single-use token from the e-mail already proves a person
 * received it, and one token makes one account. If the tax data is refused the new user is removed again.
 */
export async function signUpWithInvitation(db: Db, accounts: AccountSignUp, token: string, input: SignUpInput, now: Date): Promise<Session> {
  const inv = await pending(db, token, now);
  const body: CreateUserBody = { user: { username: input.user.username, password: input.user.password, email: inv.email } };
  const problem = await accounts.registrationProblem(body);
  if (problem) throw fail(400, problem);
  const user = await accounts.createUser(db, body);
  try {
    const account = await accounts.createClient(db, user.user_id, { client: input.client, ubication_data: input.ubication_data });
    await acceptInvitation(db, token, user.user_id, account.rfc, now);
  } catch (err) {
    await db.delete(users).where(eq(users.id, user.user_id));
    throw err;
  }
  const session = await accounts.issueSession(db, user.user_id, false, now);
  return { token: session, user_id: user.user_id, email: user.email, username: user.username };
}

// A company's collaborators (spec §3, §5): the checks of domain/company.ts in the spec's order, then
// what only the server knows (the department and the authorizer belong to this company, the e-mail is
// not in the company yet), then the invitation e-mail with a single-use join link.
import { and, asc, eq } from 'drizzle-orm';
import {
  checkEditedCollaborator,
  checkNewCollaborator,
  checkRefundAccount,
  INVITATION_TTL_DAYS,
  normalizeCollaborator,
  formatRefundAccount,
  capitalizeWords,
  type Collaborator,
  type CollaboratorInput,
  type CollaboratorStatus,
} from '../../domain/company';
import { MSG } from '../../domain/messages';
import { hashToken, newToken } from '../lib/tokens';
import type { Db } from '../db/client';
import { clients } from '../db/schema';
import { collaborators, companyAreas } from '../db/schema-company';
import { fail } from '../http/errors';
import type { Mailer } from '../mail/mailer';
import type { Company } from '../http/company-access';
import { isCompanyArea } from './areas';
import { invitationMail } from './mail';
import { errorSummary } from '../lib/error-summary';

const DAY_MS = 86_400_000;

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

export async function listCollaborators(db: Db, companyId: number, id?: number): Promise<Collaborator[]> {
  const rows = await db
    .select({
      id: collaborators.id,
      first_name: collaborators.firstName,
      last_name: collaborators.lastName,
      email: collaborators.email,
      area: companyAreas.area,
      area_id: collaborators.areaId,
      status: collaborators.status,
      corporate_card: collaborators.corporateCard,
      account_type_for_refunds_id: collaborators.accountTypeForRefundsId,
      account_for_refunds: collaborators.accountForRefunds,
      authorizer_id: collaborators.authorizerId,
      rfc: clients.rfc,
    })
    .from(collaborators)
    .leftJoin(companyAreas, eq(companyAreas.id, collaborators.areaId))
    .leftJoin(clients, eq(clients.id, collaborators.clientId))
    .where(id === undefined ? eq(collaborators.companyClientId, companyId) : and(eq(collaborators.companyClientId, companyId), eq(collaborators.id, id)))
    .orderBy(asc(collaborators.lastName), asc(collaborators.firstName), asc(collaborators.id));
  return rows.map((r) => ({ ...r, status: r.status as CollaboratorStatus, rfc: r.rfc ?? null }));
}

async function isCompanyCollaborator(db: Db, companyId: number, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: collaborators.id })
    .from(collaborators)
    .where(and(eq(collaborators.id, id), eq(collaborators.companyClientId, companyId)))
    .limit(1);
  return Boolean(row);
}

/** The department and the authorizer must be this company's (null authorizer = none). */
async function checkReferences(db: Db, companyId: number, c: Pick<CollaboratorInput, 'area_id' | 'authorizer_id'>, self?: number) {
  if (c.area_id !== null && !(await isCompanyArea(db, companyId, c.area_id))) throw fail(400, MSG.collaboratorAreaRequired);
  if (c.authorizer_id !== null && (c.authorizer_id === self || !(await isCompanyCollaborator(db, companyId, c.authorizer_id)))) {
    throw fail(400, MSG.collaboratorAuthorizerInvalid);
  }
}

export interface InviteContext {
  db: Db;
  mailer: Mailer;
  now: Date;
  /** Base of the join link, e.g. https://cuentasclaras.mx */
  publicUrl: string;
}

export const joinLink = (publicUrl: string, token: string) => `${publicUrl.replace(/\/+$/, '')}/#/join?token=${token}`;

/** A fresh single-use token for `id`: only its SHA-256 is stored; the plain one goes in the e-mail. */
async function issueInvitation(d: InviteContext, company: Company, id: number, companyName: string, emailText: string): Promise<void> {
  const token = newToken();
  const [row] = await d.db
    .update(collaborators)
    .set({ invitationTokenHash: hashToken(token), invitationExpiresAt: new Date(d.now.getTime() + INVITATION_TTL_DAYS * DAY_MS), updatedAt: d.now })
    .where(and(eq(collaborators.id, id), eq(collaborators.companyClientId, company.id)))
    .returning({ email: collaborators.email, firstName: collaborators.firstName });
  if (!row) throw fail(404, MSG.notFound);
  await d.mailer.send(
    invitationMail({ to: row.email, firstName: row.firstName, companyName, emailText, link: joinLink(d.publicUrl, token) }),
  );
}

export async function inviteCollaborator(
  d: InviteContext,
  company: Company,
  input: CollaboratorInput,
  companyName: string,
  emailText: string,
): Promise<Collaborator> {
  const problem = checkNewCollaborator(input);
  if (problem) throw fail(400, problem);
  const c = normalizeCollaborator(input);
  await checkReferences(d.db, company.id, c);
  let id: number;
  try {
    const rows = await d.db
      .insert(collaborators)
      .values({
        companyClientId: company.id,
        email: c.email,
        firstName: c.first_name,
        lastName: c.last_name,
        areaId: c.area_id,
        corporateCard: c.corporate_card,
        accountTypeForRefundsId: c.account_type_for_refunds_id,
        accountForRefunds: c.account_for_refunds,
        authorizerId: c.authorizer_id,
        createdAt: d.now,
        updatedAt: d.now,
      })
      .onConflictDoNothing({ target: [collaborators.companyClientId, collaborators.email] })
      .returning({ id: collaborators.id });
    if (!rows[0]) throw fail(422, MSG.duplicatesSkipped);
    id = rows[0].id;
  } catch (err) {
    if (isUniqueViolation(err)) throw fail(422, MSG.duplicatesSkipped);
    throw err;
  }
  try {
    await issueInvitation(d, company, id, companyName, emailText);
  } catch (err) {
    // No e-mail, no invitation: the manager can simply try again.
    await d.db.delete(collaborators).where(eq(collaborators.id, id));
    console.error('[empresa] invitación sin enviar:', errorSummary(err));
    throw fail(502, MSG.invitationMailFailed);
  }
  return (await listCollaborators(d.db, company.id, id))[0]!;
}

/** Sends a new link to someone still 'invitado' (the old link stops working). */
export async function resendInvitation(d: InviteContext, company: Company, id: number, companyName: string, emailText: string): Promise<void> {
  const [row] = await d.db
    .select({ status: collaborators.status })
    .from(collaborators)
    .where(and(eq(collaborators.id, id), eq(collaborators.companyClientId, company.id)))
    .limit(1);
  if (!row) throw fail(404, MSG.notFound);
  if (row.status !== 'invitado') return;
  try {
    await issueInvitation(d, company, id, companyName, emailText);
  } catch (err) {
    console.error('[empresa] invitación sin reenviar:', errorSummary(err));
    throw fail(502, MSG.invitationMailFailed);
  }
}

export type CollaboratorEdit = Partial<Omit<CollaboratorInput, 'email'>>;

/** Spec §5 'Edit': first name, last name and department required; card and refund account keep their formats. */
export async function updateCollaborator(db: Db, company: Company, id: number, edit: CollaboratorEdit, now: Date): Promise<Collaborator> {
  const [own] = await listCollaborators(db, company.id, id);
  if (!own) throw fail(404, MSG.notFound);
  const merged = {
    first_name: edit.first_name ?? own.first_name,
    last_name: edit.last_name ?? own.last_name,
    area_id: edit.area_id !== undefined ? edit.area_id : own.area_id,
    corporate_card: edit.corporate_card ?? own.corporate_card,
    account_type_for_refunds_id: edit.account_type_for_refunds_id !== undefined ? edit.account_type_for_refunds_id : own.account_type_for_refunds_id,
    account_for_refunds: edit.account_for_refunds ?? own.account_for_refunds,
    authorizer_id: edit.authorizer_id !== undefined ? edit.authorizer_id : own.authorizer_id,
  };
  const problem = checkEditedCollaborator(merged);
  if (problem) throw fail(400, problem);
  if (edit.corporate_card !== undefined && !/^\d{4}$/.test(merged.corporate_card.trim())) throw fail(400, MSG.corporateCardDigits);
  if (edit.account_for_refunds !== undefined || edit.account_type_for_refunds_id !== undefined) {
    const refund = checkRefundAccount(merged.account_type_for_refunds_id, merged.account_for_refunds);
    if (refund) throw fail(400, refund);
  }
  await checkReferences(db, company.id, merged, id);
  await db
    .update(collaborators)
    .set({
      firstName: capitalizeWords(merged.first_name),
      lastName: capitalizeWords(merged.last_name),
      areaId: merged.area_id,
      corporateCard: merged.corporate_card.trim(),
      accountTypeForRefundsId: merged.account_type_for_refunds_id,
      accountForRefunds: formatRefundAccount(merged.account_type_for_refunds_id, merged.account_for_refunds),
      authorizerId: merged.authorizer_id,
      updatedAt: now,
    })
    .where(and(eq(collaborators.id, id), eq(collaborators.companyClientId, company.id)));
  return (await listCollaborators(db, company.id, id))[0]!;
}

/** Removes the collaborator and with it the company's access to their RFC (and any pending link). */
export async function deleteCollaborator(db: Db, company: Company, id: number): Promise<void> {
  const rows = await db
    .delete(collaborators)
    .where(and(eq(collaborators.id, id), eq(collaborators.companyClientId, company.id)))
    .returning({ id: collaborators.id });
  if (rows.length === 0) throw fail(404, MSG.notFound);
}

/**
 * The tax accounts (clients.id) whose profile, tax data and received invoices the company may read
 * (spec §6): those its active collaborators accepted the invitation with.
 */
export async function collaboratorClientIds(db: Db, companyClientId: number): Promise<number[]> {
  const rows = await db
    .select({ clientId: collaborators.clientId })
    .from(collaborators)
    .where(and(eq(collaborators.companyClientId, companyClientId), eq(collaborators.status, 'activo')));
  return [...new Set(rows.flatMap((r) => (r.clientId === null ? [] : [r.clientId])))];
}

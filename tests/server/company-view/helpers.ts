// Set-up of the company expense view API tests: a manager's company (plan 4) with departments, active
// collaborators (each a user with a person tax account, linked as the join flow would leave them) and
// their tickets, inserted directly.
import { asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { newId } from '../../../src/domain/ids';
import { MANUAL_COMPANY_ID, TICKET_TYPE } from '../../../src/domain/ticket';
import { metaTags, tickets } from '../../../src/server/db/schema';
import { collaborators } from '../../../src/server/db/schema-company';
import type { Harness } from '../helpers/harness';

export interface Member {
  token: string;
  userId: number;
  clientId: number;
  username: string;
  rfc: string;
  collaboratorId: number;
}

let rfcSeq = 0;
/** A distinct person RFC per call (13 characters: 4 letters, a date, a 3-character homoclave). */
export function personRfc(): string {
  rfcSeq += 1;
  return `GOMA800101${String(rfcSeq).padStart(3, '0')}`;
}

/** A signed-up user with a person tax account, made an active collaborator of the company. */
export async function activeCollaborator(h: Harness, companyClientId: number, areaId: number | null, rfc: string): Promise<Member> {
  const u = await h.signUp('colab');
  const made = await h.call('POST', '/new_client', { token: u.token, body: { client: { rfc, first_name: 'Ana', last_name: 'López' } } });
  expect(made.status, made.text).toBe(200);
  const clientId = made.json.response.diverza_client_id as number;
  const [row] = await h.database.db
    .insert(collaborators)
    .values({ companyClientId, email: u.email, firstName: 'Ana', lastName: 'López', areaId, status: 'activo', userId: u.userId, clientId, acceptedAt: new Date() })
    .returning({ id: collaborators.id });
  return { token: u.token, userId: u.userId, clientId, username: u.username, rfc, collaboratorId: row!.id };
}

export async function firstMetaTags(h: Harness, n: number): Promise<{ id: number; metaTag: string }[]> {
  return h.database.db.select().from(metaTags).orderBy(asc(metaTags.id)).limit(n);
}

export interface TicketSpec {
  amount: string;
  receivedAt: string;
  type?: number;
  statusId?: number;
  metaTagId?: number | null;
  deleted?: boolean;
  /** A supported company (a venue); manual ('Registro manual') by default. */
  companyId?: number;
}

/** Inserts a ticket (manual unless `companyId` says otherwise) of the member's tax account; returns its id. */
export async function insertTicket(h: Harness, m: Pick<Member, 'userId' | 'clientId'>, t: TicketSpec): Promise<string> {
  const id = newId();
  await h.database.db.insert(tickets).values({
    id,
    userId: m.userId,
    clientId: m.clientId,
    type: t.type ?? TICKET_TYPE.expense,
    statusId: t.statusId ?? 3,
    companyId: t.companyId ?? MANUAL_COMPANY_ID,
    amount: t.amount,
    receivedAt: new Date(t.receivedAt),
    metaTagId: t.metaTagId ?? null,
    deletedAt: t.deleted ? new Date() : null,
  });
  return id;
}

export async function statusOf(h: Harness, id: string): Promise<number> {
  const [row] = await h.database.db.select({ s: tickets.statusId }).from(tickets).where(eq(tickets.id, id));
  return row!.s;
}

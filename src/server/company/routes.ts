// The company HTTP surface: departments, collaborators and invitations of a company
// tax account, the refund account types, and joining by invitation. Every /clients/{client_id}/… route is
// the manager's only (http/company-access.ts: outsider 404, collaborator 403, no plan 403 MSG.featureLocked).
import { Hono, type Context } from 'hono';
import { REFUND_ACCOUNT_TYPES } from '../../domain/company';
import { MSG } from '../../domain/messages';
import type { AppEnv, Services } from '../context';
import { caller, requireAuth } from '../http/auth';
import { ok } from '../http/envelope';
import { markSecretResponse } from '../http/idempotency';
import { fail, parseWith } from '../http/errors';
import { requireRfcVerified } from '../http/own-account';
import { managedCompany, type Company } from '../http/company-access';
import { addArea, deleteArea, listAreas } from './areas';
import { deleteCollaborator, inviteCollaborator, listCollaborators, resendInvitation, updateCollaborator, type InviteContext } from './collaborators';
import { collaboratorProfile } from './host-access';
import { acceptInvitation, showInvitation, signUpWithInvitation, type AccountSignUp } from './invitations';
import { AcceptInvitationBody, AreaBody, EditCollaboratorBody, NewCollaboratorBody, SignUpInvitationBody } from './schemas';

/** '12.json' → 12; anything else → NaN (then 404). */
const idOfFile = (file: string | undefined) => (file && /^\d{1,10}\.json$/.test(file) ? Number(file.slice(0, -5)) : NaN);
const idOf = (raw: string | undefined) => (raw && /^\d{1,10}$/.test(raw) ? Number(raw) : NaN);

export function companyRoutes(s: Services, accounts: AccountSignUp): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireAuth(s);

  const company = (c: Context<AppEnv>): Promise<Company> => managedCompany(s.db, caller(c).userId, idOf(c.req.param('client_id')));
  const inviting = (): InviteContext => ({
    db: s.db,
    mailer: s.mailer,
    now: s.clock(),
    publicUrl: s.config.publicUrl,
  });
  const companyName = (co: Company, given: string) => given.trim() || co.name || co.rfc;

  app.get('/api/v3/refund_account_types.json', (c) => {
    c.header('Cache-Control', 'public, max-age=3600');
    return ok(c, REFUND_ACCOUNT_TYPES);
  });

  // ── departments ──
  app.get('/api/v3/clients/:client_id/areas.json', auth, async (c) => ok(c, await listAreas(s.db, (await company(c)).id)));

  app.post('/api/v3/clients/:client_id/areas.json', auth, async (c) => {
    const co = await company(c);
    const body = parseWith(AreaBody, c.get('body'));
    return ok(c, await addArea(s.db, co.id, body.area));
  });

  app.delete('/api/v3/clients/:client_id/areas/:file{[^/]+\\.json}', auth, async (c) => {
    const co = await company(c);
    const id = idOfFile(c.req.param('file'));
    if (Number.isNaN(id)) throw fail(404, MSG.notFound);
    return ok(c, await deleteArea(s.db, co.id, id));
  });

  // ── collaborators ──
  app.get('/api/v3/clients/:client_id/collaborators.json', auth, async (c) => ok(c, await listCollaborators(s.db, (await company(c)).id)));

  app.post('/api/v3/clients/:client_id/collaborators.json', auth, async (c) => {
    const co = await company(c);
    // Invitations collect CLABEs in the company's name: only an account that proved its RFC sends them.
    await requireRfcVerified(s.db, co.id, MSG.rfcNotVerifiedInvite);
    const body = parseWith(NewCollaboratorBody, c.get('body'));
    const made = await inviteCollaborator(inviting(), co, body.invitation, companyName(co, body.company_name), body.email_text);
    return ok(c, made, 201);
  });

  app.put('/api/v3/clients/:client_id/collaborators/:file{[^/]+\\.json}', auth, async (c) => {
    const co = await company(c);
    const id = idOfFile(c.req.param('file'));
    if (Number.isNaN(id)) throw fail(404, MSG.notFound);
    const body = parseWith(EditCollaboratorBody, c.get('body'));
    if (body.resend) await requireRfcVerified(s.db, co.id, MSG.rfcNotVerifiedInvite);
    const edit = Object.fromEntries(Object.entries(body.invitation).filter(([, val]) => val !== undefined));
    const updated = await updateCollaborator(s.db, co, id, edit, s.clock());
    if (body.resend) await resendInvitation(inviting(), co, id, companyName(co, body.company_name), body.email_text);
    return ok(c, updated);
  });

  app.delete('/api/v3/clients/:client_id/collaborators/:file{[^/]+\\.json}', auth, async (c) => {
    const co = await company(c);
    const id = idOfFile(c.req.param('file'));
    if (Number.isNaN(id)) throw fail(404, MSG.notFound);
    await deleteCollaborator(s.db, co, id);
    return ok(c, { ok: true });
  });

  // What the company may read of an active collaborator (spec §6): profile and the accepted RFC's tax data.
  app.get('/api/v3/clients/:client_id/collaborators/:id/profile.json', auth, async (c) => {
    const co = await company(c);
    return ok(c, await collaboratorProfile(s.db, co.id, idOf(c.req.param('id'))));
  });

  // ── invitations ──
  app.get('/api/v3/invitations/:file{[^/]+\\.json}', async (c) => {
    const token = (c.req.param('file') ?? '').slice(0, -5);
    return ok(c, await showInvitation(s.db, token, s.clock()));
  });

  app.put('/api/v3/invitations/:token/accept.json', auth, async (c) => {
    const body = parseWith(AcceptInvitationBody, c.get('body'));
    return ok(c, await acceptInvitation(s.db, c.req.param('token'), caller(c).userId, body.rfc, s.clock()));
  });

  app.put('/api/v3/invitations/:token/sign_up.json', async (c) => {
    const body = parseWith(SignUpInvitationBody, c.get('body'));
    const session = await signUpWithInvitation(s.db, accounts, c.req.param('token'), body, s.clock());
    markSecretResponse(c);
    return ok(c, session);
  });

  return app;
}

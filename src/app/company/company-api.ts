// The company calls (spec §7 'Company areas', 'Company collaborators', 'Refund account types'), typed by
// the contract in domain/company.ts.
import type { Area, Collaborator, CollaboratorInput, RefundAccountType } from '../../domain/company';
import type { OAuthProfile } from '../../domain/oauth';
import { api } from '../api/client';

const base = (clientId: number) => `/api/v3/clients/${clientId}`;

/** The query keys of the company's reads (src/app/api/query.ts): a write invalidates its company's. */
export const companyKeys = {
  all: (clientId: number) => ['company', clientId] as const,
  areas: (clientId: number) => ['company', clientId, 'areas'] as const,
  collaborators: (clientId: number) => ['company', clientId, 'collaborators'] as const,
  profile: (clientId: number, id: number | null) => ['company', clientId, 'collaborators', id, 'profile'] as const,
  refundAccountTypes: ['refund-account-types'] as const,
};

export const getAreas = (clientId: number, signal?: AbortSignal) => api.get<Area[]>(`${base(clientId)}/areas.json`, undefined, signal);
export const addArea = (clientId: number, area: string) => api.post<Area[]>(`${base(clientId)}/areas.json`, { area });
export const deleteArea = (clientId: number, areaId: number) => api.delete<Area[]>(`${base(clientId)}/areas/${areaId}.json`);

export const getCollaborators = (clientId: number, signal?: AbortSignal) => api.get<Collaborator[]>(`${base(clientId)}/collaborators.json`, undefined, signal);
export const inviteCollaborator = (clientId: number, invitation: CollaboratorInput, emailText: string, companyName: string) =>
  api.post<Collaborator>(`${base(clientId)}/collaborators.json`, { invitation, email_text: emailText, company_name: companyName });
export const updateCollaborator = (clientId: number, id: number, invitation: Omit<CollaboratorInput, 'email'>, resend = false) =>
  api.put<Collaborator>(`${base(clientId)}/collaborators/${id}.json`, { invitation, ...(resend ? { resend: true } : {}) });
/** A new join link for someone still 'invitado' (the old link stops working). */
export const resendInvitation = (clientId: number, id: number, companyName: string) =>
  api.put<Collaborator>(`${base(clientId)}/collaborators/${id}.json`, { invitation: {}, resend: true, company_name: companyName });
export const deleteCollaborator = (clientId: number, id: number) => api.delete<{ ok: boolean }>(`${base(clientId)}/collaborators/${id}.json`);

export const getRefundAccountTypes = (signal?: AbortSignal) => api.get<RefundAccountType[]>('/api/v3/refund_account_types.json', undefined, signal);
/** An active collaborator's profile and accepted RFC's tax data (spec §6; never passwords). */
export const getCollaboratorProfile = (clientId: number, id: number, signal?: AbortSignal) =>
  api.get<OAuthProfile>(`${base(clientId)}/collaborators/${id}/profile.json`, undefined, signal);

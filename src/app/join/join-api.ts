// The invitation calls (spec §7 'Invitation by token', 'Sign up collaborator').
import type { Invitation } from '../../domain/company';
import type { Session } from '../../domain/http';
import { api } from '../api/client';
import type { NewClientInput } from '../api/endpoints';

const path = (token: string) => `/api/v3/invitations/${encodeURIComponent(token)}`;

export const invitationKey = (token: string | undefined) => ['invitation', token ?? null] as const;
export const getInvitation = (token: string, signal?: AbortSignal) => api.get<Invitation>(`${path(token)}.json`, undefined, signal);
export const acceptInvitation = (token: string, rfc: string) => api.put<{ collaborator_id: number; client_id: number }>(`${path(token)}/accept.json`, { rfc });
export const signUpWithInvitation = (token: string, user: { username: string; password: string }, client: NewClientInput) =>
  api.put<Session>(`${path(token)}/sign_up.json`, { user, ...client });

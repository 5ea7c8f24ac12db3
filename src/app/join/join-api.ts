// The invitation calls (spec §7 'Invitation by token', 'Sign up collaborator').
import type { Invitation } from '../../domain/company';
import type { Session } from '../../domain/http';
import { api } from '../api/client';
import type { NewClientInput } from '../api/endpoints';

const path = (token: string) => `/api/v3/invitations/${encodeURIComponent(token)}`;

export const getInvitation = (token: string) => api.get<Invitation>(`${path(token)}.json`);
export const acceptInvitation = (token: string, rfc: string) => api.put<{ collaborator_id: number; client_id: number }>(`${path(token)}/accept.json`, { rfc });
export const signUpWithInvitation = (token: string, user: { username: string; password: string }, client: NewClientInput) =>
  api.put<Session>(`${path(token)}/sign_up.json`, { user, ...client });

// The OAuth calls the screens make (src/domain/oauth.ts): the app's view, authorising, and the grants.
import type { OAuthApplicationView, OAuthGrant } from '../../domain/oauth';
import { api } from '../api/client';

export const getOAuthApplication = (oauthToken: string) =>
  api.get<OAuthApplicationView>('/oauth/authorize.json', { oauth_token: oauthToken });

export const authorizeApplication = (oauthToken: string, rfc: string) =>
  api.post<{ redirect_url: string }>('/oauth/authorize.json', { oauth_token: oauthToken, rfc });

export const getGrants = (userId: number) => api.get<OAuthGrant[]>(`/api/v3/users/${userId}/oauth_grants.json`);

export const revokeGrant = (userId: number, grantId: number) =>
  api.delete<{ id: number; revoked: boolean }>(`/api/v3/users/${userId}/oauth_grants/${grantId}.json`);

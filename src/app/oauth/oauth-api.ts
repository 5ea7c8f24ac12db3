// The OAuth calls the screens make (src/domain/oauth.ts): the app's view, authorising, and the grants.
import type { OAuthApplicationView, OAuthGrant } from '../../domain/oauth';
import { api } from '../api/client';

export const oauthKeys = {
  application: (oauthToken: string | undefined) => ['oauth-application', oauthToken ?? null] as const,
  grants: (userId: number | null) => ['oauth-grants', userId] as const,
};

export const getOAuthApplication = (oauthToken: string, signal?: AbortSignal) =>
  api.get<OAuthApplicationView>('/oauth/authorize.json', { oauth_token: oauthToken }, signal);

export const authorizeApplication = (oauthToken: string, rfc: string) =>
  api.post<{ redirect_url: string }>('/oauth/authorize.json', { oauth_token: oauthToken, rfc });

export const getGrants = (userId: number, signal?: AbortSignal) => api.get<OAuthGrant[]>(`/api/v3/users/${userId}/oauth_grants.json`, undefined, signal);

export const revokeGrant = (userId: number, grantId: number) =>
  api.delete<{ id: number; revoked: boolean }>(`/api/v3/users/${userId}/oauth_grants/${grantId}.json`);

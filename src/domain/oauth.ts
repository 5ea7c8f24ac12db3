// OAuth for third-party apps (spec §2 OAuth, §3 OAuth application, §4, §6, §7 OAuth, §8).
// An OAuth 1.0a-shaped flow, as the spec's `oauth_token` names it:
//  1. The app, server to server: POST /oauth/request_token.json {client_id, client_secret, callback_url}
//     → {oauth_token} (single use, expires in OAUTH_REQUEST_TTL_MINUTES). callback_url must equal the
//     registered one.
//  2. The user opens #/oauth?oauth_token=…: GET /oauth/authorize.json?oauth_token=… → OAuthApplicationView
//     (or 404 MSG.invalidPageToken). Signed in, the user picks an RFC and authorises:
//     POST /oauth/authorize.json {oauth_token, rfc} with X-Access-Token → {redirect_url}: callback_url with
//     ?oauth_token=…&oauth_verifier=… ; the browser goes there.
//  3. The app: POST /oauth/access_token.json {client_id, client_secret, oauth_token, oauth_verifier}
//     → {access_token} (a replayed verifier → 400). The token reads GET /api/v3/oauth/profile.json
//     (OAuthProfile) only; on any other endpoint (invoices, receipts, tickets) it gets 403.
//  4. The user lists and revokes grants from the profile: GET /api/v3/users/{id}/oauth_grants.json,
//     DELETE /api/v3/users/{id}/oauth_grants/{grant_id}.json.
// Apps are registered by the operator (CLI; secret shown once, stored hashed).
import type { Account } from './account';

export const OAUTH_REQUEST_TTL_MINUTES = 10;

/** Spec §3 OAuth application, as the authorisation screen shows it. */
export interface OAuthApplicationView {
  name: string;
  description: string;
  icon: string;
  website: string;
  callback_url: string;
}

/** What an app may read (spec §6): profile and tax data — never invoices or passwords. */
export interface OAuthProfile {
  user: { username: string; email: string };
  account: Pick<Account, 'rfc' | 'name' | 'first_name' | 'last_name' | 'regimen_fiscal' | 'address' | 'residencia_fiscal' | 'num_reg_id_trib'>;
}

export interface OAuthGrant {
  id: number;
  application: Pick<OAuthApplicationView, 'name' | 'icon' | 'website'>;
  rfc: string;
  created_at: string;
}

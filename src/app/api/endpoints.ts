// The calls of the account area (DESIGN §3, spec §7), typed. No Dexie here: the login chunk uses it.
import type { Account, AccountAddress } from '../../domain/account';
import type { Session } from '../../domain/http';
import { deviceTokenFor, saveDeviceToken } from '../../offline/device-token';
import { api } from './client';
import { deviceId, deviceModel } from './device';

export interface AltchaChallenge {
  algorithm: 'SHA-1' | 'SHA-256' | 'SHA-512';
  challenge: string;
  maxnumber?: number;
  salt: string;
  signature: string;
}

export interface NewClientInput {
  client: { first_name: string; last_name: string; rfc: string; name: string; regimen_fiscal: string };
  ubication_data: AccountAddress & { num_reg_id_trib: string; residencia_fiscal: string };
}

export interface UpdateClientInput {
  diverza_client_id: number;
  rfc: string;
  name?: string;
  first_name?: string;
  last_name?: string;
  zip_code?: string;
  regimen_fiscal?: string;
}

export interface PlanDto {
  id: number;
  name: string;
  summary: string;
  price: number;
}

export const getCaptcha = () => api.get<AltchaChallenge>('/api/v2/captcha');

export const createUser = async (user: { username: string; email: string; password: string }, captcha: string) =>
  api.post<{ user_id: number; username: string; email: string }>('/api/v2/create_user', {
    user,
    device: { id_device: await deviceId(), device: 'web', model: deviceModel() },
    captcha,
  });

/** Signs in with this device's known-device token for `login` (if any) and keeps the fresh one it returns. */
export async function login(login: string, password: string, remember: boolean): Promise<Session> {
  const known = await deviceTokenFor(login);
  const { device_token: deviceToken, ...session } = await api.post<Session & { device_token?: string }>('/api/v2/login', {
    user: { login, password, remember },
    device: { identifierForVendor: await deviceId(), device: 'web', model: deviceModel() },
    ...(known ? { device_token: known } : {}),
  });
  if (deviceToken) await saveDeviceToken(session, deviceToken);
  return session;
}

export const logout = () => api.post<unknown>('/api/v2/logout');

export const requestPasswordReset = (login: string) =>
  api.post<unknown>('/api/v2/password_reset', { user: { login } });

export const confirmPasswordReset = (token: string, password: string) =>
  api.post<unknown>('/api/v2/password_reset/confirm', { token, password });

export const getAccounts = () => api.get<Account[]>('/user_clients');

export const newClient = (body: NewClientInput) => api.post<Account>('/new_client', body);

export const updateClient = (client: UpdateClientInput) => api.put<Account>('/update_client', { client });


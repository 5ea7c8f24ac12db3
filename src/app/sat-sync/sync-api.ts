// The SAT sync page's calls (contract: src/domain/sat-sync.ts; server: src/server/sat-sync), through the
// shared client (the e.firma goes as multipart/form-data).
import type { Account } from '../../domain/account';
import { EFIRMA_PARTS, type AuthenticateSatBody, type SatSyncStatus, type SaveSatPasswordBody } from '../../domain/sat-sync';
import { api } from '../api/client';

const branch = (userId: number, rfc: string) => `/api/v3/users/${userId}/branches/${encodeURIComponent(rfc)}`;

export const syncPaths = {
  status: (userId: number, rfc: string) => `${branch(userId, rfc)}/sync`,
  authenticate: '/api/v1/AuthenticateSATPortal',
  branch: (userId: number, rfc: string) => `${branch(userId, rfc)}.json`,
  efirma: (userId: number, rfc: string) => `${branch(userId, rfc)}/efirma`,
};

export const syncStatusKey = (userId: number | undefined, rfc: string) => ['sat-sync-status', userId ?? null, rfc] as const;

export const getSyncStatus = (userId: number, rfc: string, signal?: AbortSignal) => api.get<SatSyncStatus>(syncPaths.status(userId, rfc), undefined, signal);

/** 200 = the portal accepts the CIEC; 400 = wrong password; 422 = this server's SAT portal takes only the e.firma. */
export const authenticateSat = (body: AuthenticateSatBody) => api.post<unknown>(syncPaths.authenticate, body);

export const saveSatPassword = (userId: number, rfc: string, body: SaveSatPasswordBody) => api.put<Account>(syncPaths.branch(userId, rfc), body);

export function uploadEfirma(userId: number, rfc: string, files: { cer: File; key: File; password: string }): Promise<Account> {
  const form = new FormData();
  form.append(EFIRMA_PARTS.cer, files.cer, files.cer.name);
  form.append(EFIRMA_PARTS.key, files.key, files.key.name);
  form.append(EFIRMA_PARTS.password, files.password);
  return api.putForm<Account>(syncPaths.efirma(userId, rfc), form);
}

export const disconnectSat = (userId: number, rfc: string) => api.delete<Account>(syncPaths.branch(userId, rfc));

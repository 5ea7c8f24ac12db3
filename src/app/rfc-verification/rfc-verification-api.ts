// The verify screen's calls (server: src/server/rfc-verification and the SAT portal check of sat-sync).
import type { Account } from '../../domain/account';
import { RFC_PROOF_PARTS, rfcVerificationPaths } from '../../domain/rfc-verification';
import { api } from '../api/client';

/** The .cer, .key and password go to the server, which signs a challenge with them in memory and keeps none. */
export function verifyWithEfirma(clientId: number, files: { cer: File; key: File; password: string }): Promise<Account> {
  const form = new FormData();
  form.append(RFC_PROOF_PARTS.cer, files.cer, files.cer.name);
  form.append(RFC_PROOF_PARTS.key, files.key, files.key.name);
  form.append(RFC_PROOF_PARTS.password, files.password);
  return api.putForm<Account>(rfcVerificationPaths.efirma(clientId), form);
}

/** SAT's portal accepting the CIEC proves the RFC (nothing is saved: that is 'Sincronización SAT'). */
export const verifyWithCiec = (rfc: string, ciec: string) => api.post<{ valid: true }>('/api/v1/AuthenticateSATPortal', { rfc, clave_ciec: ciec });

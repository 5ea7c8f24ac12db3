// Proving that the holder of an account really holds its RFC: by the e.firma (a challenge signed with the
// FIEL's private key) or by a successful connection to SAT. The shapes the server and the app share.

/** How an RFC was proved: a FIEL signature, or SAT accepting its CIEC / e.firma. */
export type RfcVerifiedBy = 'efirma' | 'sat';

/** A challenge lives this long: enough to pick the files and sign, short enough not to be kept around. */
export const RFC_CHALLENGE_TTL_MS = 10 * 60_000;

/** The multipart parts of the e.firma proof: the .cer always; then either `challenge` + `signature`
 *  (base64 of a SHA-256 RSA signature of the challenge text, made wherever the key lives), or `key` +
 *  `password`, which the server opens in memory only to sign the challenge itself. */
export const RFC_PROOF_PARTS = { cer: 'cer', key: 'key', password: 'password', challenge: 'challenge', signature: 'signature' } as const;

/** GET challenge answer. */
export interface RfcChallenge {
  /** The exact text to sign. */
  challenge: string;
  /** ISO 8601. */
  expires_at: string;
}

export const rfcVerificationPaths = {
  challenge: (clientId: number) => `/api/v3/clients/${clientId}/rfc_verification/challenge.json`,
  efirma: (clientId: number) => `/api/v3/clients/${clientId}/rfc_verification/efirma`,
};

/** True when the account proved its RFC. */
export const isRfcVerified = (a: { rfc_verified?: boolean }) => a.rfc_verified === true;

// The verify screen's rules, pure: what is missing before sending, and what an answer means to the user.
import { MSG } from '../../domain/messages';
import { EFIRMA_FILE_MAX_BYTES, SAT_PASSWORD_MAX, SAT_PASSWORD_MIN } from '../../domain/sat-sync';
import { ApiError } from '../../offline/http';

export const VERIFY_TXT = {
  title: 'Verificar RFC',
  intro: 'Comprueba que eres titular de este RFC. Así podrás invitar colaboradores en nombre de tu empresa e importar facturas por su folio.',
  privacy: 'Usamos tus archivos y tu contraseña solo para comprobarlo, en este momento: no los guardamos.',
  efirmaTitle: 'Con tu e.firma',
  efirmaHelp: 'Sube el certificado (.cer), la llave privada (.key) y la contraseña de tu e.firma (FIEL). Un sello digital (CSD) no sirve.',
  efirmaSubmit: 'Verificar con e.firma',
  ciecTitle: 'Con tu contraseña del SAT (CIEC)',
  ciecHelp: 'La contraseña con la que entras al portal del SAT. Solo la usamos para comprobar que el SAT te deja entrar.',
  ciecSubmit: 'Verificar con CIEC',
  syncLink: 'O conéctate en Sincronización SAT',
  verifiedTitle: 'RFC verificado',
  verifiedBy: { efirma: 'Lo comprobaste con tu e.firma.', sat: 'Lo comprobaste con tu conexión al SAT.' },
  offline: 'Necesitas conexión a internet para verificar tu RFC.',
  back: 'Ir al Dashboard',
} as const;

export type EfirmaField = 'cer' | 'key' | 'password';

export function checkEfirmaDraft(d: { cer: File | null; key: File | null; password: string }): { field: EfirmaField; message: string } | null {
  if (!d.cer) return { field: 'cer', message: MSG.efirmaMissing };
  if (d.cer.size > EFIRMA_FILE_MAX_BYTES) return { field: 'cer', message: MSG.efirmaFileTooBig };
  if (!d.key) return { field: 'key', message: MSG.efirmaMissing };
  if (d.key.size > EFIRMA_FILE_MAX_BYTES) return { field: 'key', message: MSG.efirmaFileTooBig };
  if (!d.password) return { field: 'password', message: MSG.efirmaMissing };
  return null;
}

export function checkCiec(ciec: string): string | null {
  if (ciec.length < SAT_PASSWORD_MIN || ciec.length > SAT_PASSWORD_MAX) return MSG.satPasswordLength;
  return null;
}

/** The server's Spanish reason, or what to do when the request never arrived. */
export function failureText(err: unknown): string {
  if (err instanceof ApiError) return err.offline ? VERIFY_TXT.offline : err.message;
  return MSG.generic;
}

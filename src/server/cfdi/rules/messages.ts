// The Spanish explanation shown to a user for each finding: SAT's own message from the matrix
// (what a PAC answers), reworded here where SAT's text is unclear on its own.
import { MATRIX_MESSAGES } from './catalogs';

const CLEARER: ReadonlyMap<string, string> = new Map(Object.entries({
  CFDI40101: 'El campo Fecha no cumple con el patrón requerido (AAAA-MM-DDThh:mm:ss).',
  CFDI40102: 'El sello del CFDI no corresponde a su contenido y a su certificado: el archivo fue alterado o no es auténtico.',
  CFDI40106: 'El certificado del CFDI no es un certificado válido o no corresponde a su NoCertificado.',
}));

export function explain(code: string): string {
  return CLEARER.get(code) ?? MATRIX_MESSAGES.get(code) ?? 'Error no clasificado.';
}

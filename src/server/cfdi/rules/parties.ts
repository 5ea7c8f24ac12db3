// Emisor, Receptor, InformacionGlobal and CfdiRelacionados (CFDI40130–CFDI40161): the regime by
// person type (RFC of 12 characters: persona moral; 13: física), the UsoCFDI by person type and
// régimen as SAT's c_UsoCFDI says, the generic RFCs (público en general XAXX010101000, extranjero
// XEXX010101000), the foreign receiver's country and tax id, and the global invoice's period.
// What only SAT's online lists know (RFC registered, its name and postal code) is left to the PAC;
// a value that cannot be on those lists at all (a malformed RFC or postal code) is reported.
import { isMexicanPostalCode } from '../../../domain/cfdi-time-zone';
import { isCountryCode } from '../../../domain/countries';
import { numRegIdTribFits, usoFitsReceiver } from '../../../domain/invoicing';
import { SAT_REGIMENES, SAT_USOS_CFDI } from '../../../domain/sat-catalogs';
import { MESES, PERIODICIDAD, TIPO_RELACION } from './catalogs';
import type { RuleContext, RuleModule } from './context';
import { attr } from './model';

export const RFC_PUBLICO = 'XAXX010101000';
export const RFC_EXTRANJERO = 'XEXX010101000';
export const PUBLICO_EN_GENERAL = 'PUBLICO EN GENERAL';
/** SAT's t_RFC: 3 (moral) or 4 (física) letters, a date, a 3-character homoclave. */
const RFC = /^[A-ZÑ&]{3,4}[0-9]{2}(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])[A-Z0-9]{2}[0-9A]$/;

const REGIMENES = new Map(SAT_REGIMENES.map((r) => [r.code, r]));
const USOS = new Map(SAT_USOS_CFDI.map((u) => [u.code, u]));

/** 'moral' for an RFC of 12 characters, 'fisica' for 13 (the generic RFCs are 13: física). */
export function personOf(rfc: string): 'moral' | 'fisica' | null {
  return rfc.length === 12 ? 'moral' : rfc.length === 13 ? 'fisica' : null;
}

/** c_RegimenFiscal allows this regime for that RFC's person type (null when the RFC's type is unknown). */
function regimenFits(regimen: string, rfc: string): boolean | null {
  const r = REGIMENES.get(regimen);
  const person = personOf(rfc);
  if (!r || !person) return null;
  return person === 'moral' ? r.moral : r.fisica;
}

function usoFitsPerson(uso: string, rfc: string): boolean {
  const u = USOS.get(uso)!;
  const person = personOf(rfc);
  return person === 'moral' ? u.moral : person === 'fisica' ? u.fisica : true;
}

function check(ctx: RuleContext): void {
  const { m, tipo, report } = ctx;
  const emisor = m.emisor;
  const receptor = m.receptor;
  const emisorRfc = attr(emisor, 'Rfc') ?? '';
  const emisorRegimen = attr(emisor, 'RegimenFiscal') ?? '';
  const rfc = attr(receptor, 'Rfc') ?? '';
  const nombre = attr(receptor, 'Nombre') ?? '';
  const generic = rfc === RFC_PUBLICO || rfc === RFC_EXTRANJERO;
  const lugar = attr(m.root, 'LugarExpedicion') ?? '';

  // InformacionGlobal: a factura global to público en general, its period and year.
  const global = m.informacionGlobal;
  if (tipo === 'I' && rfc === RFC_PUBLICO && nombre === PUBLICO_EN_GENERAL && !global) report('CFDI40130');
  if (global) {
    const periodicidad = attr(global, 'Periodicidad') ?? '';
    const meses = attr(global, 'Meses') ?? '';
    if (!PERIODICIDAD.has(periodicidad)) report('CFDI40131');
    if (periodicidad === '05' && emisorRegimen !== '621') report('CFDI40132');
    if (!MESES.has(meses)) report('CFDI40133');
    if (PERIODICIDAD.has(periodicidad) && periodicidad !== '05' && !/^(0[1-9]|1[0-2])$/.test(meses)) report('CFDI40134');
    if (periodicidad === '05' && !/^1[3-8]$/.test(meses)) report('CFDI40135');
    // "El año en curso o hasta 5 ejercicios anteriores": the year of the CFDI's Fecha.
    const year = Number(attr(global, 'Año'));
    const current = Number((attr(m.root, 'Fecha') ?? '').slice(0, 4));
    if (!Number.isInteger(year) || !Number.isInteger(current) || current === 0 || year > current || year < current - 5) report('CFDI40136');
  }

  for (const rel of m.relacionados) if (!TIPO_RELACION.has(attr(rel, 'TipoRelacion') ?? '')) report('CFDI40137');

  if (emisor) {
    if (!REGIMENES.has(emisorRegimen)) report('CFDI40140');
    else if (regimenFits(emisorRegimen, emisorRfc) === false) report('CFDI40141');
  }

  if (!receptor) return;
  // CFDI40143: an RFC that is not even well formed cannot be on SAT's list of registered RFCs.
  if (!generic && !RFC.test(rfc)) report('CFDI40143', 'El RFC del receptor no tiene la forma de un RFC (3 o 4 letras, fecha y homoclave): no puede estar inscrito en el SAT.');
  if (nombre === PUBLICO_EN_GENERAL && rfc !== RFC_PUBLICO) report('CFDI40146');
  const domicilio = attr(receptor, 'DomicilioFiscalReceptor') ?? '';
  // CFDI40147: a DomicilioFiscalReceptor that is not a Mexican postal code cannot be the registered one.
  if (!generic && !isMexicanPostalCode(domicilio)) report('CFDI40147', 'El DomicilioFiscalReceptor no es un código postal de México: no puede ser el domicilio fiscal inscrito del receptor.');
  if (generic && domicilio !== lugar) report('CFDI40149');

  const residencia = attr(receptor, 'ResidenciaFiscal');
  const numReg = attr(receptor, 'NumRegIdTrib');
  const foreign = rfc === RFC_EXTRANJERO;
  if (residencia !== undefined && !isCountryCode(residencia)) report('CFDI40150');
  if (residencia !== undefined && !foreign) report('CFDI40151');
  if (residencia === 'MEX') report('CFDI40152');
  if (foreign && (m.hasCce || numReg !== undefined) && residencia === undefined) report('CFDI40153');
  if (numReg !== undefined && !foreign) report('CFDI40154');
  if (foreign && m.hasCce && numReg === undefined) report('CFDI40155');
  if (numReg !== undefined && residencia !== undefined) {
    if (!numRegIdTribFits(residencia, numReg)) report('CFDI40156');
  }

  const regimen = attr(receptor, 'RegimenFiscalReceptor') ?? '';
  if (!REGIMENES.has(regimen)) report('CFDI40157');
  else if (regimenFits(regimen, rfc) === false) report('CFDI40158');
  if (generic && regimen !== '616') report('CFDI40159');

  // CFDI40161: the same rule the receiver forms apply (domain/invoicing.ts); a regime outside the
  // catalog is CFDI40157's finding, so the Uso is then judged by person type alone.
  const uso = attr(receptor, 'UsoCFDI') ?? '';
  if (!USOS.has(uso)) report('CFDI40160');
  else if (REGIMENES.has(regimen) ? !usoFitsReceiver(regimen, uso, rfc) : !usoFitsPerson(uso, rfc)) report('CFDI40161');
}

export const partiesRules: RuleModule = {
  codes: [
    'CFDI40130', 'CFDI40131', 'CFDI40132', 'CFDI40133', 'CFDI40134', 'CFDI40135', 'CFDI40136', 'CFDI40137',
    'CFDI40140', 'CFDI40141', 'CFDI40143', 'CFDI40146', 'CFDI40147', 'CFDI40149', 'CFDI40150', 'CFDI40151',
    'CFDI40152', 'CFDI40153', 'CFDI40154', 'CFDI40155', 'CFDI40156', 'CFDI40157', 'CFDI40158', 'CFDI40159',
    'CFDI40160', 'CFDI40161',
  ],
  check,
};

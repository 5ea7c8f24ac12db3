// SAT's own tools as test oracles: xsltproc running SAT's cadena-original XSLT, and xmllint
// validating against SAT's XSD. Both come from Debian (xsltproc, libxml2-utils; CI installs them) and are
// found on the PATH. Where they are missing, npm packages stand in, so `npm test` needs nothing but Node
// and npm: SaxonJS for the XSLT (each stylesheet compiled once by xslt3, kept in the temp folder) and
// xmllint-wasm (libxml2 itself, compiled to WebAssembly) for the XSD. SAT_TOOLS=npm uses them even where
// the Debian tools exist (how the suite proves the stand-ins give the same answers).
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import SaxonJS from 'saxon-js';
import { onPath } from '../../tools/system-tools';
import type { CfdiInput } from '../../../src/server/cfdi/build';
import { IVA_16 } from '../../../src/server/cfdi/build';
import { CADENA_TABLE } from '../../../src/server/cfdi/cadena-table';
import type { StylesheetId } from '../../../src/server/cfdi/cadena';

export const SHARED = fileURLToPath(new URL('../../fixtures', import.meta.url));
export const CFDI_DIR = join(SHARED, 'cfdi');
export const CSD_DIR = join(SHARED, 'csd');
export const SAT_XML = join(SHARED, 'sat-xml/www.sat.gob.mx');
const CFD = join(SAT_XML, 'sitio_internet/cfd');

export const fixtureNames = (): string[] => readdirSync(CFDI_DIR).filter((f) => f.endsWith('.xml')).sort();
export const fixture = (name: string): string => readFileSync(join(CFDI_DIR, name), 'utf8');

let scratch: string | undefined;
/** A per-run temporary folder for files the tools read. */
export function scratchDir(): string {
  scratch ??= mkdtempSync(join(tmpdir(), 'cc-cfdi-'));
  return scratch;
}

/** Removes the scratch folder (call in afterAll). */
export function removeScratch(): void {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
  schemas = undefined;
}

/** A program on the PATH (null when absent, or when SAT_TOOLS=npm asks for the npm stand-ins). */
export function systemTool(name: string): string | null {
  return process.env.SAT_TOOLS === 'npm' ? null : onPath(name);
}

const require = createRequire(import.meta.url);

/** SAT's stylesheet compiled for SaxonJS (xslt3 -export), once per machine: kept in the temp folder by content. */
function compiledStylesheet(xslt: string): unknown {
  const key = createHash('sha256').update(`${xslt}\n${readFileSync(xslt, 'utf8')}\n${require('saxon-js/package.json').version}`).digest('hex').slice(0, 16);
  const sef = join(tmpdir(), `cc-sat-xslt-${key}.sef.json`);
  if (!existsSync(sef)) {
    // Written aside and renamed: test files running in parallel may compile the same stylesheet.
    const partial = `${sef}.${process.pid}.tmp`;
    execFileSync(process.execPath, [require.resolve('xslt3/xslt3.js'), `-xsl:${xslt}`, `-export:${partial}`, '-nogo', '-relocate:on'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 180_000 });
    renameSync(partial, sef);
  }
  return JSON.parse(readFileSync(sef, 'utf8'));
}

/** SAT's stylesheet run by SaxonJS on a file (the stand-in for xsltproc). */
export function saxonTransform(stylesheet: StylesheetId, xmlFile: string): string {
  const xslt = join(SAT_XML, CADENA_TABLE.stylesheets[stylesheet].source);
  return SaxonJS.transform({ stylesheetInternal: compiledStylesheet(xslt), sourceText: readFileSync(xmlFile, 'utf8'), destination: 'serialized' }, 'sync').principalResult;
}

/** SAT's stylesheet run by libxslt (or SaxonJS) on a file; the includes are relative paths inside the mirror. */
export function xsltproc(stylesheet: StylesheetId, xmlFile: string): string {
  const xslt = join(SAT_XML, CADENA_TABLE.stylesheets[stylesheet].source);
  const tool = systemTool('xsltproc');
  if (!tool) return saxonTransform(stylesheet, xmlFile);
  // stderr only carries "xsl:version: only 1.1 features are supported" (SAT declares 2.0).
  return execFileSync(tool, ['--nonet', xslt, xmlFile], { stdio: ['ignore', 'pipe', 'ignore'] }).toString('utf8');
}

/** xsltproc on an XML string (written to the scratch folder first). */
export function xsltprocText(stylesheet: StylesheetId, xml: string, name = 'doc.xml'): string {
  const file = join(scratchDir(), name);
  writeFileSync(file, xml);
  return xsltproc(stylesheet, file);
}

// ---- XSD validation ------------------------------------------------------------------------------

const CATALOGS = join(SHARED, 'catalogs');

/** Catalog types cfdv40.xsd imports from catCFDI.xsd, with the JSON catalog that lists their codes. */
const ENUMERATED: Record<string, string> = {
  c_FormaPago: 'forma-pago.json', c_MetodoPago: 'metodo-pago.json', c_Moneda: 'moneda.json',
  c_RegimenFiscal: 'regimen-fiscal.json', c_UsoCFDI: 'uso-cfdi.json', c_TipoDeComprobante: 'tipo-comprobante.json',
  c_Exportacion: 'exportacion.json', c_Impuesto: 'impuesto.json', c_TipoFactor: 'tipo-factor.json',
  c_ObjetoImp: 'objeto-imp.json', c_TipoRelacion: 'tipo-relacion.json', c_Periodicidad: 'periodicidad.json',
  c_Meses: 'meses.json', c_ClaveUnidad: 'clave-unidad.json',
};
/** Catalogs the fixtures lack (too large, or absent): shape-only stand-ins. */
const PATTERNED: Record<string, string> = { c_ClaveProdServ: '[0-9]{8}', c_CodigoPostal: '[0-9]{5}', c_Pais: '[A-Z]{3}' };

/** A stand-in for SAT's catCFDI.xsd (not in the mirror) generated from tests/fixtures/catalogs. */
export function catCfdiStandIn(): string {
  const type = (name: string, facets: string) =>
    `  <xs:simpleType name="${name}"><xs:restriction base="xs:string">${facets}</xs:restriction></xs:simpleType>`;
  const codes = (file: string): string[] => {
    const items = (JSON.parse(readFileSync(join(CATALOGS, file), 'utf8')) as { items: { code?: string; id?: string }[] }).items;
    return items.map((i) => String(i.code ?? i.id));
  };
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.sat.gob.mx/sitio_internet/cfd/catalogos" elementFormDefault="qualified">',
    ...Object.entries(ENUMERATED).map(([name, file]) => type(name, codes(file).map((c) => `<xs:enumeration value="${esc(c)}"/>`).join(''))),
    ...Object.entries(PATTERNED).map(([name, pattern]) => type(name, `<xs:pattern value="${pattern}"/>`)),
    '</xs:schema>',
    '',
  ].join('\n');
}

let schemas: { root: string; cfdi: string; stamped: string } | undefined;

/** SAT's XSD copied with the stand-in catCFDI.xsd next to it, plus a schema for stamped CFDI (paths relative to root). */
export function cfdi40Schemas(): { root: string; cfdi: string; stamped: string } {
  if (schemas) return schemas;
  const root = join(scratchDir(), 'xsd');
  const copy = (rel: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    copyFileSync(join(CFD, rel), join(root, rel));
  };
  copy('4/cfdv40.xsd');
  copy('tipoDatos/tdCFDI/tdCFDI.xsd');
  copy('TimbreFiscalDigital/TimbreFiscalDigitalv11.xsd');
  mkdirSync(join(root, 'catalogos'), { recursive: true });
  writeFileSync(join(root, 'catalogos/catCFDI.xsd'), catCfdiStandIn());
  // cfdi:Complemento holds xs:any with strict processing: the TFD's schema must be loaded too.
  writeFileSync(join(root, 'stamped.xsd'), [
    '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">',
    '  <xs:import namespace="http://www.sat.gob.mx/cfd/4" schemaLocation="4/cfdv40.xsd"/>',
    '  <xs:import namespace="http://www.sat.gob.mx/TimbreFiscalDigital" schemaLocation="TimbreFiscalDigital/TimbreFiscalDigitalv11.xsd"/>',
    '</xs:schema>',
  ].join('\n'));
  schemas = { root, cfdi: '4/cfdv40.xsd', stamped: 'stamped.xsd' };
  return schemas;
}

/** xmllint-wasm's verdict on a file against a schema of `root` (every .xsd there loaded): the stand-in for xmllint. */
export function xmllintWasm(root: string, schema: string, file: string): { valid: boolean; errors: string } {
  const r = spawnSync(process.execPath, [fileURLToPath(new URL('../../tools/xmllint-wasm.mjs', import.meta.url))], {
    input: JSON.stringify({ root, schema, xml: file }),
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`xmllint-wasm: ${r.stderr}`);
  return JSON.parse(r.stdout) as { valid: boolean; errors: string };
}

/** xmllint's verdict on a CFDI 4.0 (stamped or not) against SAT's cfdv40.xsd (+ TFD 1.1). */
export function validateCfdi40(xml: string, name = 'validate.xml'): { valid: boolean; errors: string } {
  const file = join(scratchDir(), name);
  writeFileSync(file, xml);
  const { root, cfdi, stamped } = cfdi40Schemas();
  const schema = xml.includes('TimbreFiscalDigital') ? stamped : cfdi;
  const tool = systemTool('xmllint');
  if (!tool) return xmllintWasm(root, schema, file);
  const r = spawnSync(tool, ['--noout', '--nonet', '--schema', join(root, schema), file], { encoding: 'utf8' });
  return { valid: r.status === 0, errors: r.stderr };
}

// ---- sample inputs -------------------------------------------------------------------------------

/** A ticket-style invoice between the demo's two test RFCs. */
export function sampleInput(over: Partial<CfdiInput> = {}): CfdiInput {
  return {
    serie: 'T',
    folio: '123',
    fecha: '2026-05-01T12:00:00',
    formaPago: '04',
    metodoPago: 'PUE',
    tipoDeComprobante: 'I',
    lugarExpedicion: '42501',
    emisor: { rfc: 'EKU9003173C9', nombre: 'ESCUELA KEMPER URGATE', regimenFiscal: '601' },
    receptor: {
      rfc: 'XIQB891116QE4', nombre: 'BERENICE XIMO QUEZADA', domicilioFiscalReceptor: '88965',
      regimenFiscalReceptor: '612', usoCfdi: 'G03',
    },
    conceptos: [{
      claveProdServ: '50202306', noIdentificacion: 'TK-0001', cantidad: '2', claveUnidad: 'H87', unidad: 'Pieza',
      descripcion: 'Café americano', valorUnitario: '43.10', objetoImp: '02', traslados: [IVA_16],
    }],
    ...over,
  };
}

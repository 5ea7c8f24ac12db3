// The npm stand-ins for SAT's tools give the Debian tools' answers, so `npm test` on a machine without
// xsltproc or xmllint checks the same things: SaxonJS runs SAT's XSLT to our cadena (which cadena.test.ts
// holds to xsltproc's on every fixture), and xmllint-wasm accepts and refuses what xmllint does.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cadenaOriginal, parseSatXml, stylesheetFor } from '../../../src/server/cfdi/cadena';
import { issueSandboxCfdi } from '../../../src/server/cfdi/issue';
import { openTestCsd, sealCfdi } from '../../../src/server/cfdi/seal';
import { CFDI_DIR, cfdi40Schemas, fixture, removeScratch, sampleInput, saxonTransform, scratchDir, systemTool, xmllintWasm } from './sat-tools';

afterAll(removeScratch);

/** One fixture per stylesheet the table compiles. */
const SAMPLES = ['cfdi40-ingreso-retenciones-sw-stamped.xml', 'cfdi40-pago20-sw-stamped.xml', 'cfdi33-ingreso-traslados-retenciones-stamped.xml'];

describe('npm stand-ins for xsltproc and xmllint', () => {
  it.each(SAMPLES)('SaxonJS runs SAT\'s stylesheet on %s to the same cadena', (name) => {
    const doc = parseSatXml(fixture(name));
    expect(saxonTransform(stylesheetFor(doc.documentElement!), join(CFDI_DIR, name))).toBe(cadenaOriginal(doc));
  }, 120_000);

  it('xmllint-wasm accepts a stamped CFDI 4.0 and refuses one with a UsoCFDI outside the catalog, as xmllint does', async () => {
    const csd = openTestCsd('EKU9003173C9');
    const { xml } = await issueSandboxCfdi(sampleInput(), csd);
    const { root, cfdi, stamped } = cfdi40Schemas();
    const write = (name: string, text: string) => {
      const file = join(scratchDir(), name);
      writeFileSync(file, text);
      return file;
    };
    const good = xmllintWasm(root, stamped, write('wasm-good.xml', xml));
    expect(good).toMatchObject({ valid: true });
    expect(good.errors).toContain('validates');
    const unstamped = sealCfdi(sampleInput({ receptor: { ...sampleInput().receptor, usoCfdi: 'G99' } }), csd).xml;
    const bad = xmllintWasm(root, cfdi, write('wasm-bad.xml', unstamped));
    expect(bad.valid).toBe(false);
    expect(bad.errors).toContain('UsoCFDI');
    expect(bad.errors).toContain('fails to validate');
  }, 120_000);

  it('SAT_TOOLS=npm hides the system tools (how a run proves the stand-ins)', () => {
    const before = process.env.SAT_TOOLS;
    process.env.SAT_TOOLS = 'npm';
    try {
      expect(systemTool('xsltproc')).toBeNull();
      expect(systemTool('node')).toBeNull();
    } finally {
      if (before === undefined) delete process.env.SAT_TOOLS;
      else process.env.SAT_TOOLS = before;
    }
    expect(systemTool('definitely-not-a-tool-cc')).toBeNull();
  });
});

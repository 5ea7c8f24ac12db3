// xmllint's schema validation from the xmllint-wasm package, for machines without Debian's libxml2-utils
// (tests/server/cfdi/sat-tools.ts runs it as a child process, so its callers stay synchronous).
// Input (stdin, JSON): { root, schema, xml } — root: a folder whose every .xsd is loaded under its path
// relative to root (so schemaLocation imports resolve as on disk); schema: such a relative path; xml: a
// file. Output (stdout, JSON): { valid, errors }, errors worded as the xmllint command prints them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import process from 'node:process';
import { validateXML } from 'xmllint-wasm';

const { root, schema, xml } = JSON.parse(readFileSync(0, 'utf8'));
const schemas = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.xsd')) schemas.push({ fileName: relative(root, path), contents: readFileSync(path, 'utf8') });
  }
};
walk(root);
const name = basename(xml);
const result = await validateXML({
  xml: [{ fileName: name, contents: readFileSync(xml, 'utf8') }],
  schema: schemas.filter((s) => s.fileName === schema),
  preload: schemas.filter((s) => s.fileName !== schema),
});
const lines = result.errors.map((e) => e.rawMessage);
lines.push(result.valid ? `${name} validates` : `${name} fails to validate`);
process.stdout.write(JSON.stringify({ valid: result.valid, errors: lines.join('\n') }));

// The repository tests itself (DESIGN §6): no file names a path that leads out of it. Two kinds of string
// literal are refused:
// - a relative path ('./…', '../…') that climbs above the repository's root from the folder of the file
//   that names it (how imports, new URL(…, import.meta.url) and resolve(import.meta.dirname, …) read it);
// - a path into the workspace the repository was first built in (its shared/fixtures, shared/spec,
//   shared/docs or shared/DESIGN.md), from wherever it is resolved.
// Absolute paths are not judged: in this code they are URL paths ('/dev/mailbox', '/home'), not files.
// One home for the check: this lint rule runs it on code, and tests/tools/repository-paths.ts on every
// code and configuration file (JSON, scripts, HTML too).
import { dirname, relative, resolve } from 'node:path';

const RELATIVE = /(['"`])(\.\.?\/[^'"`\n]*)\1/g;
const WORKSPACE = /(['"`])([^'"`\n]*\bshared\/(?:fixtures|spec|docs|DESIGN\.md)\b[^'"`\n]*)\1/g;

/** The leaks in one file's text; `file` is its path relative to `root`. */
export function leaksIn(text, file, root) {
  const out = [];
  const lineOf = (index) => text.slice(0, index).split('\n').length;
  for (const m of text.matchAll(RELATIVE)) {
    const literal = m[2];
    const path = literal.split('${')[0]; // a template's fixed part
    const target = resolve(root, dirname(file), path);
    if (relative(root, target).startsWith('..')) out.push({ file, line: lineOf(m.index), literal, why: 'sale del repositorio' });
  }
  for (const m of text.matchAll(WORKSPACE)) {
    out.push({ file, line: lineOf(m.index), literal: m[2], why: 'apunta al espacio de trabajo de fuera (shared/…)' });
  }
  return out;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'No path that leads out of the repository (DESIGN §6)' },
    schema: [],
  },
  create(context) {
    return {
      Program(node) {
        const root = context.cwd;
        const file = relative(root, context.filename);
        if (file.startsWith('..')) return; // not a file of this repository
        for (const leak of leaksIn(context.sourceCode.text, file, root)) {
          context.report({
            node,
            loc: { line: leak.line, column: 0 },
            message: `'${leak.literal}' ${leak.why}: the repository must run with nothing beside it (tests/fixtures holds what tests need).`,
          });
        }
      },
    };
  },
};

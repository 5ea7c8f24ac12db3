// Finds paths in the repository's own files that lead out of it: the tests, the scripts and the app must
// run from a clone with nothing beside it (DESIGN §6). Two kinds of string literal are refused:
// - a relative path ('./…', '../…') that climbs above the repository's root from the folder of the file
//   that names it (how imports, new URL(…, import.meta.url) and resolve(import.meta.dirname, …) read it);
// - a path into the workspace the repository was first built in (its shared/fixtures, shared/spec,
//   shared/docs or shared/DESIGN.md), from wherever it is resolved.
// Absolute paths are not judged: in this code they are URL paths ('/dev/mailbox', '/home'), not files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';

/** The repository's root (this file is tests/tools/repository-paths.ts). */
export const REPO_ROOT = resolve(import.meta.dirname, '../..');

/** Folders never scanned: installed packages, build output, git's own files. */
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'coverage']);
/** Files that hold code or configuration (READMEs and other prose may mention anything). */
const SCANNED = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json', '.sh', '.html']);
/** Extension-less scripts that are scanned too. */
const SCRIPTS = new Set(['.ci/run']);

const RELATIVE = /(['"`])(\.\.?\/[^'"`\n]*)\1/g;
const WORKSPACE = /(['"`])([^'"`\n]*\bshared\/(?:fixtures|spec|docs|DESIGN\.md)\b[^'"`\n]*)\1/g;

export interface PathLeak {
  /** File, relative to the root. */
  file: string;
  line: number;
  literal: string;
  why: string;
}

/** The leaks in one file's text; `file` is its path relative to `root`. */
export function leaksIn(text: string, file: string, root: string = REPO_ROOT): PathLeak[] {
  const out: PathLeak[] = [];
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  for (const m of text.matchAll(RELATIVE)) {
    const literal = m[2]!;
    const path = literal.split('${')[0]!; // a template's fixed part
    const target = resolve(root, dirname(file), path);
    if (relative(root, target).startsWith('..')) out.push({ file, line: lineOf(m.index), literal, why: 'sale del repositorio' });
  }
  for (const m of text.matchAll(WORKSPACE)) {
    out.push({ file, line: lineOf(m.index), literal: m[2]!, why: 'apunta al espacio de trabajo de fuera (shared/…)' });
  }
  return out;
}

/** Every code and configuration file of the repository, relative to `root`. */
export function repositoryFiles(root: string = REPO_ROOT): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir))) {
      if (SKIPPED.has(name)) continue;
      const rel = dir ? `${dir}/${name}` : name;
      if (statSync(join(root, rel)).isDirectory()) walk(rel);
      else if (SCANNED.has(extname(name)) || SCRIPTS.has(rel)) out.push(rel);
    }
  };
  walk('');
  return out.sort();
}

/** Every leak in the repository. */
export function repositoryLeaks(root: string = REPO_ROOT): PathLeak[] {
  return repositoryFiles(root).flatMap((f) => leaksIn(readFileSync(join(root, f), 'utf8'), f, root));
}

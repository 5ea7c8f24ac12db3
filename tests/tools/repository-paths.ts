// Finds paths in the repository's own files that lead out of it: the tests, the scripts and the app must
// run from a clone with nothing beside it (DESIGN §6). The check itself is the lint rule's
// (.config/eslint-rules/repository-paths.js); this walks every code and configuration file with it,
// JSON, scripts and HTML included, which lint does not read.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { leaksIn as leaksInText, type PathLeak } from '../../.config/eslint-rules/repository-paths.js';

/** The repository's root (this file is tests/tools/repository-paths.ts). */
export const REPO_ROOT = resolve(import.meta.dirname, '../..');

/** Folders never scanned: installed packages, build output, git's own files. */
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'coverage']);
/** Files that hold code or configuration (READMEs and other prose may mention anything). */
const SCANNED = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json', '.sh', '.html']);
/** Extension-less scripts that are scanned too. */
const SCRIPTS = new Set(['.ci/run']);

export type { PathLeak };

/** The leaks in one file's text; `file` is its path relative to `root` (the check lives with the lint rule). */
export function leaksIn(text: string, file: string, root: string = REPO_ROOT): PathLeak[] {
  return leaksInText(text, file, root);
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

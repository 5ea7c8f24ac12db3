// Figures and checks for the feature zones of DESIGN §1: which folder of a root (src/server, src/app)
// imports which, how many imports cross from one feature into another, and the cycles between folders.
// The zones themselves (root, shared homes) are read from the lint configuration, so both agree.
// Run it for the figures: npx tsx tests/tools/feature-zones.ts
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import { REPO_ROOT } from './repository-paths';

export interface Zone {
  /** Relative to the repository's root, e.g. 'src/server'. */
  root: string;
  /** Folders of the root that any feature may import. */
  shared: string[];
  /** 'from -> to' pairs still to untangle, tolerated by lint for now. */
  pending?: string[];
}

export interface FolderImport {
  from: string;
  to: string;
  /** The importing file, relative to the repository's root. */
  file: string;
  specifier: string;
}

const CODE = new Set(['.ts', '.tsx', '.mts', '.js', '.mjs']);
/** `from '…'`, `import '…'` and `import('…')`: every way a module names another. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"\n]+)['"]/g;

/** The module specifiers a source text names. */
export function importSpecifiers(text: string): string[] {
  return [...text.matchAll(SPECIFIER)].map((m) => m[1]!);
}

function codeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return codeFiles(path);
    return CODE.has(extname(name)) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const folderOf = (root: string, path: string): string | null => {
  const parts = relative(root, path).split(sep);
  return parts.length > 1 && parts[0] !== '..' ? parts[0]! : null;
};

/** Every relative import from one folder of `root` into another (files directly in the root are not a folder). */
export function folderImports(root: string, repo: string = REPO_ROOT): FolderImport[] {
  const base = resolve(repo, root);
  const out: FolderImport[] = [];
  for (const file of codeFiles(base)) {
    const from = folderOf(base, file);
    if (from === null) continue;
    for (const specifier of importSpecifiers(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const to = folderOf(base, resolve(dirname(file), specifier));
      if (to !== null && to !== from) out.push({ from, to, file: relative(repo, file), specifier });
    }
  }
  return out;
}

/** Imports that break the zone: a feature into another feature, or a shared home into a feature (pending ones included). */
export function crossFeatureImports(zone: Zone, repo: string = REPO_ROOT): { total: number; byPair: Record<string, number> } {
  const shared = new Set(zone.shared);
  const byPair: Record<string, number> = {};
  for (const i of folderImports(zone.root, repo)) {
    if (shared.has(i.to)) continue;
    const pair = `${i.from} -> ${i.to}`;
    byPair[pair] = (byPair[pair] ?? 0) + 1;
  }
  return { total: Object.values(byPair).reduce((a, b) => a + b, 0), byPair };
}

/**
 * The groups of folders of `root` that import each other in a circle (strongly connected, two or more).
 * `ignore` leaves out 'from -> to' pairs (a zone's pending ones).
 */
export function folderCycles(root: string, ignore: readonly string[] = [], repo: string = REPO_ROOT): string[][] {
  return cyclesOf(folderImports(root, repo).filter(({ from, to }) => !ignore.includes(`${from} -> ${to}`)));
}

/** The groups of folders that reach each other through `imports`. */
export function cyclesOf(imports: readonly { from: string; to: string }[]): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from)!.add(to);
  }
  // Tarjan's strongly connected components
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return groups;
}

/** The zones the lint configuration declares. */
export async function lintZones(repo: string = REPO_ROOT): Promise<Zone[]> {
  const eslint = new ESLint({ cwd: repo, overrideConfigFile: join(repo, '.config/eslint.config.js') });
  const config = (await eslint.calculateConfigForFile(join(repo, 'src/server/app.ts'))) as { rules?: Record<string, unknown[]> };
  const options = config.rules?.['local/feature-zones']?.[1] as { zones: Zone[] } | undefined;
  return options?.zones ?? [];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const zone of await lintZones()) {
    const { total, byPair } = crossFeatureImports(zone);
    console.log(`${zone.root}: ${total} imports cross from one feature into another`);
    for (const [pair, n] of Object.entries(byPair).sort()) console.log(`  ${pair}: ${n}`);
    const cycles = folderCycles(zone.root, zone.pending);
    if (cycles.length) console.log(`  cycles: ${cycles.map((c) => c.join(' ⇄ ')).join('; ')}`);
  }
}

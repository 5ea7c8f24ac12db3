// Lists the functions and components longer than N lines under a folder, grouped by the folder they sit in,
// so a refactor can show how many long ones it left. Counts every function-like node (declarations,
// methods, arrows, function expressions) from its first line to its last; a nested function counts on
// its own and inside its parent.
// Run: npx tsx tests/tools/long-functions.ts [root=src] [--min 80] [--by-folder-depth 1]
//   e.g. npx tsx tests/tools/long-functions.ts src/app --min 150
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

export interface LongFunction {
  file: string;
  name: string;
  line: number;
  lines: number;
}

const SKIPPED = new Set(['node_modules', 'dist', 'migrations']);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (SKIPPED.has(entry)) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|tsx)$/.test(entry) && !entry.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** What a reader would call the function: its own name, the variable or property it is assigned to, or where it sits. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name))) return node.name.text;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) && (ts.isIdentifier(parent.name) || ts.isStringLiteral(parent.name))) return parent.name.text;
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText();
    // A function handed to a wrapper (useCallback, memo, forwardRef): name it after the wrapper's owner.
    const owner = parent.parent;
    if (ts.isVariableDeclaration(owner) && ts.isIdentifier(owner.name)) return `${owner.name.text} (${callee})`;
    return `(callback of ${callee.length > 40 ? `${callee.slice(0, 40)}…` : callee})`;
  }
  if (ts.isJsxExpression(parent)) return '(inline JSX handler)';
  return '(anonymous)';
}

/** The functions over `min` lines in one file's text. */
export function longFunctionsIn(file: string, text: string, min: number): LongFunction[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const first = source.getLineAndCharacterOfPosition(fn.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(fn.getEnd()).line;
      const lines = last - first + 1;
      if (lines > min) found.push({ file, name: nameOf(fn), line: first + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every function over `min` lines under `root`, file paths relative to `base`. */
export function longFunctions(root: string, min: number, base = process.cwd()): LongFunction[] {
  return sourceFiles(root).flatMap((path) => longFunctionsIn(relative(base, path), readFileSync(path, 'utf8'), min));
}

/** The folder a file is reported under: `depth` folders below the root, or '(root files)'. */
export function folderOf(file: string, root: string, depth: number): string {
  const parts = relative(root, file).split(sep);
  return parts.length <= 1 ? '(root files)' : parts.slice(0, Math.min(depth, parts.length - 1)).join('/');
}

function main(argv: string[]) {
  const args = [...argv];
  const flag = (name: string, fallback: number) => {
    const i = args.indexOf(name);
    if (i < 0) return fallback;
    const value = Number(args[i + 1]);
    args.splice(i, 2);
    if (!Number.isInteger(value) || value < 0) throw new Error(`${name} wants a whole number`);
    return value;
  };
  const min = flag('--min', 80);
  const depth = flag('--by-folder-depth', 1);
  const root = resolve(args[0] ?? 'src');
  const found = longFunctions(root, min);
  const byFolder = new Map<string, LongFunction[]>();
  for (const f of found) {
    const folder = folderOf(resolve(f.file), root, depth);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), f]);
  }
  console.log(`Functions over ${min} lines under ${relative(process.cwd(), root) || '.'}: ${found.length}`);
  for (const [folder, list] of [...byFolder].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`\n${folder}: ${list.length}`);
    for (const f of list.sort((a, b) => b.lines - a.lines)) console.log(`  ${String(f.lines).padStart(4)}  ${f.name}  ${f.file}:${f.line}`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) main(process.argv.slice(2));

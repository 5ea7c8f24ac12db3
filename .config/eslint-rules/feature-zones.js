// Feature zones (DESIGN §1): under a root such as src/server, each folder is a feature or a shared home.
// A feature imports only itself, its shared homes and the files directly in the root (the composition
// root); a shared home imports only other shared homes. Files directly in the root may import anything.
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/** The folder under `root` a path lies in, or null (outside the root, or a file directly in it). */
function folderOf(root, path) {
  const rel = relative(root, path);
  if (!rel || rel.startsWith('..') || isAbsolute(rel)) return null;
  const parts = rel.split(sep);
  return parts.length > 1 ? parts[0] : null;
}

/** Why `from` (a folder of the zone) may not import `to` (another folder of it), or null when it may. */
export function zoneProblem(zone, from, to) {
  if (from === to) return null;
  const shared = new Set(zone.shared ?? []);
  if (shared.has(to)) return null;
  if ((zone.pending ?? []).includes(`${from} -> ${to}`)) return null;
  const homes = [...shared].join(', ');
  return shared.has(from)
    ? `${zone.root}/${from} is a shared home and may not import the feature ${zone.root}/${to}; shared homes import only each other (${homes}).`
    : `${zone.root}/${from} may not import ${zone.root}/${to}: features do not import each other (DESIGN §1). Move what both need to a shared home (${homes}) or pass it in from the composition root (the files directly in ${zone.root}).`;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Features under a root folder import only themselves, the shared homes and the root' },
    schema: [
      {
        type: 'object',
        properties: {
          zones: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                root: { type: 'string' },
                shared: { type: 'array', items: { type: 'string' } },
                pending: { type: 'array', items: { type: 'string' } },
              },
              required: ['root', 'shared'],
              additionalProperties: false,
            },
          },
        },
        required: ['zones'],
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const zones = context.options[0]?.zones ?? [];
    const file = resolve(context.cwd, context.filename);
    const mine = zones
      .map((zone) => ({ zone, root: resolve(context.cwd, zone.root) }))
      .map((z) => ({ ...z, from: folderOf(z.root, file) }))
      .filter((z) => z.from !== null);
    if (mine.length === 0) return {};

    const check = (source) => {
      const specifier = source?.type === 'Literal' ? source.value : source?.type === 'TemplateLiteral' && source.expressions.length === 0 ? source.quasis[0]?.value.cooked : undefined;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = resolve(dirname(file), specifier);
      for (const { zone, root, from } of mine) {
        const to = folderOf(root, target);
        if (to === null) continue;
        const message = zoneProblem(zone, from, to);
        if (message) context.report({ node: source, message });
      }
    };

    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => node.source && check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      // `typeof import('../x')` and `import('../x').T` in types
      TSImportType: (node) => check(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
    };
  },
};

// The server reads its settings in one place (src/server/config.ts, which the README's settings table
// mirrors): no other server file reads process.env.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles } from '../tools/repository-paths';

describe('server settings', () => {
  it('only src/server/config.ts reads process.env', () => {
    const readers = repositoryFiles()
      .filter((f) => f.startsWith('src/server/') && /\.(ts|tsx|mjs)$/.test(f) && f !== 'src/server/config.ts')
      .filter((f) => /\bprocess\.env\b/.test(readFileSync(join(REPO_ROOT, f), 'utf8')));
    expect(readers).toEqual([]);
  });
});

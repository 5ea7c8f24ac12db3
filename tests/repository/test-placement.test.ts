// Tests mirror src/ (DESIGN §1): a test of tests/{domain,offline,app,server} sits in the folder that
// mirrors the code it tests, so a moved or renamed folder takes its tests along.
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles } from '../tools/repository-paths';

const MIRRORED = /^tests\/(domain|offline|app|server)\//;

describe('test placement', () => {
  it('every unit and API test sits in a folder that exists under src/', () => {
    const astray = repositoryFiles()
      .filter((f) => MIRRORED.test(f) && /\.test\.tsx?$/.test(f))
      .filter((f) => {
        const mirror = join(REPO_ROOT, dirname(f).replace(/^tests\//, 'src/'));
        return !existsSync(mirror) || !statSync(mirror).isDirectory();
      });
    expect(astray).toEqual([]);
  });
});

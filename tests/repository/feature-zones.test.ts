// Features stay in their rooms (DESIGN §1): lint refuses an import from one feature folder into another,
// and no folders of src/server import each other in a circle, shared homes included.
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { crossFeatureImports, cyclesOf, folderCycles, lintZones, type Zone } from '../tools/feature-zones';
import { REPO_ROOT } from '../tools/repository-paths';

const eslint = new ESLint({ cwd: REPO_ROOT, overrideConfigFile: join(REPO_ROOT, '.config/eslint.config.js') });

/** The zone messages lint gives a source text placed at `filePath`. */
async function zoneMessages(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(REPO_ROOT, filePath) });
  return result!.messages.filter((m) => m.ruleId === 'local/feature-zones').map((m) => m.message);
}

async function serverZone(): Promise<Zone> {
  const zone = (await lintZones()).find((z) => z.root === 'src/server');
  if (!zone) throw new Error('the lint configuration declares no src/server zone');
  return zone;
}

describe('feature zones', () => {
  it('probe: a feature importing another feature, in any form, is refused and the message names both and the shared homes', async () => {
    const messages = await zoneMessages(
      [
        "import { charge } from '../plans/x';",
        "import type { Card } from '../plans/y';",
        "export { refund } from '../plans/z';",
        "export const later = () => import('../plans/w');",
      ].join('\n'),
      'src/server/tickets/probe.ts',
    );
    expect(messages).toHaveLength(4);
    expect(messages[0]).toContain('src/server/tickets may not import src/server/plans');
    expect(messages[0]).toContain('http, lib, db');
  });

  it('probe: a feature may import itself, a shared home, the composition root and domain', async () => {
    const code = [
      "import { a } from './tickets';",
      "import { b } from '../http/errors';",
      "import { c } from '../cfdi/read';",
      "import type { AppEnv } from '../context';",
      "import { d } from '../../domain/ticket';",
    ].join('\n');
    expect(await zoneMessages(code, 'src/server/tickets/probe.ts')).toEqual([]);
  });

  it('probe: the composition root imports any feature; a shared home imports none', async () => {
    expect(await zoneMessages("import { p } from './plans/x';", 'src/server/probe.ts')).toEqual([]);
    const [message] = await zoneMessages("import { p } from '../plans/x';", 'src/server/http/probe.ts');
    expect(message).toContain('src/server/http is a shared home and may not import the feature src/server/plans');
  });

  it('src/server: no import crosses between features except the pending ones the configuration lists', async () => {
    const zone = await serverZone();
    const { byPair } = crossFeatureImports(zone);
    expect(Object.keys(byPair).filter((pair) => !(zone.pending ?? []).includes(pair))).toEqual([]);
    // a pair that no longer occurs leaves the pending list
    expect((zone.pending ?? []).filter((pair) => !(pair in byPair))).toEqual([]);
  });

  it('src/server: no folders import each other in a circle, counting the pending imports too', async () => {
    const zone = await serverZone();
    expect(folderCycles(zone.root)).toEqual([]);
  });

  it('probe: circles are found, a long one too, and a one-way chain is not one', () => {
    const edge = (from: string, to: string) => ({ from, to });
    expect(cyclesOf([edge('lib', 'db'), edge('db', 'lib'), edge('http', 'db')])).toEqual([['db', 'lib']]);
    expect(cyclesOf([edge('a', 'b'), edge('b', 'c'), edge('c', 'a'), edge('c', 'd')])).toEqual([['a', 'b', 'c']]);
    expect(cyclesOf([edge('a', 'b'), edge('b', 'c')])).toEqual([]);
  });
});

describe('feature zones: src/app', () => {
  async function appZone(): Promise<Zone> {
    const zone = (await lintZones()).find((z) => z.root === 'src/app');
    if (!zone) throw new Error('the lint configuration declares no src/app zone');
    return zone;
  }

  it('probe: a client feature importing another (a stylesheet too) is refused; its shared homes and the root are not', async () => {
    const refused = await zoneMessages(["import { HomePage } from '../home/home-page';", "import '../company/company.css';"].join('\n'), 'src/app/annual/probe.tsx');
    expect(refused).toHaveLength(2);
    expect(refused[0]).toContain('src/app/annual may not import src/app/home');
    expect(refused[0]).toContain('tickets');
    const allowed = [
      "import { TicketTable } from '../tickets/ticket-list';",
      "import { Button } from '../ui/button';",
      "import { useLayout } from '../layout/layout-context';",
      "import { useOnline } from '../use-online';",
      "import '../tickets/tickets.css';",
    ].join('\n');
    expect(await zoneMessages(allowed, 'src/app/annual/probe.tsx')).toEqual([]);
    expect(await zoneMessages("import { HomeScreen } from './screens';", 'src/app/probe.tsx')).toEqual([]);
  });

  it('probe: a client shared home importing a feature is refused', async () => {
    const [message] = await zoneMessages("import { HomePage } from '../home/home-page';", 'src/app/tickets/probe.tsx');
    expect(message).toContain('src/app/tickets is a shared home and may not import the feature src/app/home');
  });

  it('src/app: no import crosses between features except the pending ones the configuration lists', async () => {
    const zone = await appZone();
    const { byPair } = crossFeatureImports(zone);
    expect(Object.keys(byPair).filter((pair) => !(zone.pending ?? []).includes(pair))).toEqual([]);
    expect((zone.pending ?? []).filter((pair) => !(pair in byPair))).toEqual([]);
  });

  it('src/app: no folders import each other in a circle', async () => {
    const zone = await appZone();
    expect(folderCycles(zone.root, zone.pending)).toEqual([]);
  });
});

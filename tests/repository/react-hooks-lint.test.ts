// The React hooks rules hold in src/app: lint refuses a component that syncs state in an effect or reads a
// ref while rendering, as an error, and stays quiet for the same screen written the recommended way.
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../tools/repository-paths';

const eslint = new ESLint({ cwd: REPO_ROOT, overrideConfigFile: join(REPO_ROOT, '.config/eslint.config.js') });

/** The react-hooks findings lint gives a source text placed at `filePath`, as "rule (severity)". */
async function hooksFindings(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(REPO_ROOT, filePath) });
  return result!.messages
    .filter((m) => m.ruleId?.startsWith('react-hooks/'))
    .map((m) => `${m.ruleId} (${m.severity === 2 ? 'error' : 'warning'})`);
}

const SMELLY = `
import { useEffect, useRef, useState } from 'react';

export function Greeting({ name, onSeen }: { name: string; onSeen: () => void }) {
  const [upper, setUpper] = useState('');
  const seenRef = useRef(onSeen);
  seenRef.current = onSeen;
  useEffect(() => {
    setUpper(name.toUpperCase());
  }, [name]);
  return <p onClick={() => seenRef.current()}>{upper}</p>;
}
`;

const CLEAN = `
import { useEffect, useEffectEvent } from 'react';

export function Greeting({ name, onSeen }: { name: string; onSeen: () => void }) {
  const upper = name.toUpperCase();
  const seen = useEffectEvent(onSeen);
  useEffect(() => {
    seen();
  }, [name]);
  return <p>{upper}</p>;
}
`;

describe('react hooks lint', () => {
  it('probe: state synced in an effect and a ref written while rendering are errors in src/app/home', async () => {
    const findings = await hooksFindings(SMELLY, 'src/app/home/probe.tsx');
    expect(findings).toContain('react-hooks/set-state-in-effect (error)');
    expect(findings).toContain('react-hooks/refs (error)');
  });

  it('probe: a missing effect dependency is an error too, not the preset\'s warning', async () => {
    const code = `
import { useEffect } from 'react';
export function Title({ text }: { text: string }) {
  useEffect(() => {
    document.title = text;
  }, []);
  return null;
}
`;
    expect(await hooksFindings(code, 'src/app/home/probe.tsx')).toEqual(['react-hooks/exhaustive-deps (error)']);
  });

  it('probe: the same component with derived state and an effect event passes', async () => {
    expect(await hooksFindings(CLEAN, 'src/app/home/probe.tsx')).toEqual([]);
  });
});

// `npm install && npm test` needs nothing but Node and npm: where the machine has no Chromium, the one
// @sparticuz/chromium ships runs the browser tests. Proved here by launching it even where Debian's exists.
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from '../e2e/harness';
import { chromiumExecutable, onPath } from '../tools/system-tools';

describe('tools the tests borrow, and their npm stand-ins', () => {
  it('the Chromium an npm package ships starts and renders a page', async () => {
    const path = await chromiumExecutable({ system: false });
    expect(path).not.toBe(onPath('chromium'));
    const browser = await chromium.launch({ executablePath: path, args: CHROMIUM_ARGS, headless: true });
    try {
      const page = await browser.newPage();
      await page.setContent('<main><h1>Cuentas Claras</h1></main>');
      expect(await page.textContent('h1')).toBe('Cuentas Claras');
    } finally {
      await browser.close();
    }
  }, 120_000);

  it('finds programs on the PATH, and not ones that are not there', () => {
    expect(onPath('node')).toMatch(/node$/);
    expect(onPath('definitely-not-a-tool-cc')).toBeNull();
  });
});

// The register-app CLI's icon: a local image becomes a data: URL (the CSP's img-src allows data:, not
// remote hosts); anything else is refused with a Spanish message.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeGreyPng } from '../../../src/server/demo/png';
import { iconDataUrl } from '../../../src/server/oauth/register-app';
import { safeIconSrc } from '../../../src/app/oauth/oauth-model';

const dir = mkdtempSync(join(tmpdir(), 'cc-oauth-icon-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('iconDataUrl', () => {
  it('turns a PNG into a data: URL the authorisation screen shows', () => {
    const png = encodeGreyPng(4, 4, new Uint8Array(16).fill(128));
    const path = join(dir, 'icono.png');
    writeFileSync(path, png);
    const url = iconDataUrl(path);
    expect(url).toBe(`data:image/png;base64,${Buffer.from(png).toString('base64')}`);
    expect(safeIconSrc(url)).toBe(url);
  });

  it('refuses files that are not images, and images over 64 KB', () => {
    const text = join(dir, 'nota.txt');
    writeFileSync(text, 'hola');
    expect(() => iconDataUrl(text)).toThrow('El ícono debe ser PNG, JPEG, WebP o GIF.');
    const big = join(dir, 'grande.png');
    writeFileSync(big, Buffer.alloc(64 * 1024 + 1));
    expect(() => iconDataUrl(big)).toThrow('El ícono puede pesar hasta 64 KB.');
  });
});

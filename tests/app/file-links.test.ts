// Opening a receipt file or ticket image from a row (DESIGN §3): the tab opens inside the click, before
// any await (popup blockers), and goes to the signed link once it arrives; the XML is a download; offline
// or on failure nothing opens and a Spanish toast says why.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/offline/http';
import { openFile, type OpenFileDeps, type OpenedTab } from '../../src/app/api/file-links';
import type { FileLink, FileTarget } from '../../src/domain/file-links';
import { MSG } from '../../src/domain/messages';

const PDF: FileTarget = { kind: 'receipt_pdf', id: 'r-1' };
const XML: FileTarget = { kind: 'receipt_xml', id: 'r-1' };
const IMAGE: FileTarget = { kind: 'ticket_image', id: 't-1' };
const LINK: FileLink = { url: '/receipt_pdf?receipt_id=r-1&link=1.2.abc', expires_at: '2026-11-26T12:05:00.000Z' };

function fake(opts: { online?: boolean; answer?: () => Promise<FileLink>; tabRefused?: boolean } = {}) {
  const log: string[] = [];
  const tab: OpenedTab = {
    location: { replace: (url) => void log.push(`tab → ${url}`) },
    close: () => void log.push('tab closed'),
  };
  const deps: OpenFileDeps = {
    online: () => opts.online ?? true,
    request: (t) => {
      log.push(`request ${t.kind} ${t.id}`);
      return (opts.answer ?? (async () => LINK))();
    },
    openTab: () => {
      log.push('tab opened');
      return opts.tabRefused ? null : tab;
    },
    follow: (url, newTab) => void log.push(`follow ${url}${newTab ? ' in a new tab' : ''}`),
    error: (m) => void log.push(`toast ${m}`),
  };
  return { deps, log };
}

describe('opening a file from a row', () => {
  it('opens the tab before asking for the link, then points it at the signed link (PDF and image)', async () => {
    for (const target of [PDF, IMAGE]) {
      const { deps, log } = fake();
      const done = openFile(target, deps);
      // Synchronously, inside the click: the tab exists before the request is answered.
      expect(log).toEqual(['tab opened', `request ${target.kind} ${target.id}`]);
      expect(await done).toBe(true);
      expect(log).toEqual(['tab opened', `request ${target.kind} ${target.id}`, `tab → ${LINK.url}`]);
    }
  });

  it('downloads the XML through the link, without opening a tab', async () => {
    const { deps, log } = fake();
    expect(await openFile(XML, deps)).toBe(true);
    expect(log).toEqual(['request receipt_xml r-1', `follow ${LINK.url}`]);
  });

  it('follows the link in a new tab when the browser refused the blank one', async () => {
    const { deps, log } = fake({ tabRefused: true });
    expect(await openFile(PDF, deps)).toBe(true);
    expect(log).toEqual(['tab opened', 'request receipt_pdf r-1', `follow ${LINK.url} in a new tab`]);
  });

  it('offline: opens nothing, asks nothing, and says so in Spanish', async () => {
    const { deps, log } = fake({ online: false });
    expect(await openFile(PDF, deps)).toBe(false);
    expect(log).toEqual([`toast ${MSG.fileOpenOffline}`]);
  });

  it("closes the tab and shows the server's Spanish reason, or the offline one when the request never arrived", async () => {
    const refused = fake({ answer: async () => Promise.reject(new ApiError(MSG.receiptNotFound, 404)) });
    expect(await openFile(PDF, refused.deps)).toBe(false);
    expect(refused.log).toEqual(['tab opened', 'request receipt_pdf r-1', 'tab closed', `toast ${MSG.receiptNotFound}`]);

    const dropped = fake({ answer: async () => Promise.reject(new ApiError('Sin conexión', 0, true)) });
    expect(await openFile(IMAGE, dropped.deps)).toBe(false);
    expect(dropped.log.slice(-2)).toEqual(['tab closed', `toast ${MSG.fileOpenOffline}`]);

    const broken = fake({ answer: async () => Promise.reject(new TypeError('x')) });
    expect(await openFile(XML, broken.deps)).toBe(false);
    expect(broken.log).toEqual(['request receipt_xml r-1', `toast ${MSG.fileOpenFailed}`]);
  });
});

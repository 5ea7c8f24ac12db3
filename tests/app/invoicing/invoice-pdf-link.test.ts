// Reimprimir signed in: the PDF of the user's own invoice request opens through a signed short-lived link
// (never the session in a URL); a request that is not theirs to sign for is an anonymous one, opened by
// its plain path; offline or on a failure the tab closes and a Spanish toast says why.
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/offline/http';
import { openFile, type OpenFileDeps } from '../../../src/app/api/file-links';
import { invoicePdfLink } from '../../../src/app/api/invoicing';
import type { FileTarget } from '../../../src/domain/file-links';
import { MSG } from '../../../src/domain/messages';

const ID = '0b0c4f1e-2a7d-4c5e-9f00-1234567890ab';
const SIGNED = `/api/v33/invoice_requests/${ID}/pdf?link=7.1900000000.${'a'.repeat(43)}`;

function world(answer: (target: FileTarget) => Promise<{ url: string; expires_at: string }>, online = true) {
  const tab = { location: { replace: vi.fn() }, close: vi.fn() };
  const errors: string[] = [];
  const request = vi.fn(answer);
  const deps: OpenFileDeps = {
    online: () => online,
    request: (target) => invoicePdfLink(target.id, request),
    openTab: () => tab,
    follow: vi.fn(),
    error: (m) => void errors.push(m),
  };
  return { tab, errors, request, deps };
}

describe('Reimprimir an invoice request signed in', () => {
  it("opens the user's own PDF in the tab through the minted invoice_pdf link", async () => {
    const w = world(async () => ({ url: SIGNED, expires_at: '2030-01-01T00:00:00.000Z' }));
    expect(await openFile({ kind: 'invoice_pdf', id: ID }, w.deps)).toBe(true);
    expect(w.request).toHaveBeenCalledWith({ kind: 'invoice_pdf', id: ID });
    expect(w.tab.location.replace).toHaveBeenCalledWith(SIGNED);
    expect(w.tab.close).not.toHaveBeenCalled();
  });

  it('opens an anonymous request (no one’s to sign for: 404) by its plain path', async () => {
    const w = world(async () => {
      throw new ApiError(MSG.notFound, 404);
    });
    expect(await openFile({ kind: 'invoice_pdf', id: ID }, w.deps)).toBe(true);
    expect(w.tab.location.replace).toHaveBeenCalledWith(`/api/v33/invoice_requests/${ID}/pdf`);
    expect(w.errors).toEqual([]);
  });

  it('closes the tab and says why when offline or when the link cannot be made', async () => {
    const offline = world(async () => ({ url: SIGNED, expires_at: '' }), false);
    expect(await openFile({ kind: 'invoice_pdf', id: ID }, offline.deps)).toBe(false);
    expect(offline.request).not.toHaveBeenCalled();
    expect(offline.errors).toEqual([MSG.fileOpenOffline]);

    const lost = world(async () => {
      throw new ApiError(MSG.generic, 0, true);
    });
    expect(await openFile({ kind: 'invoice_pdf', id: ID }, lost.deps)).toBe(false);
    expect(lost.tab.close).toHaveBeenCalled();
    expect(lost.tab.location.replace).not.toHaveBeenCalled();
    expect(lost.errors).toEqual([MSG.fileOpenOffline]);

    const broken = world(async () => {
      throw new ApiError(MSG.generic, 500);
    });
    expect(await openFile({ kind: 'invoice_pdf', id: ID }, broken.deps)).toBe(false);
    expect(broken.tab.close).toHaveBeenCalled();
    expect(broken.errors).toEqual([MSG.generic]);
  });
});

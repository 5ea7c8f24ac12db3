// Opening a receipt's PDF or XML, or a ticket's image (DESIGN §3: no secret in a URL that the app
// makes). On click the app asks the server, with the token in the header, for a signed link that opens
// only that file for a few minutes, and hands it to the browser: PDF and image in a new tab, XML as a
// download. The tab is opened synchronously inside the click (popup blockers allow only that) and
// pointed at the file once the link arrives; offline or on failure it closes and a toast says why.
import { MSG } from '../../domain/messages';
import type { FileLink, FileTarget } from '../../domain/file-links';
import { ApiError } from '../../offline/http';
import { api } from './client';

/** POST /api/v3/file_links: a same-origin path with a short-lived signed link, 404 for a file not the caller's. */
export function requestFileLink(target: FileTarget): Promise<FileLink> {
  return api.post<FileLink>('/api/v3/file_links', { kind: target.kind, id: target.id });
}

/** The part of a window the opener uses (a real tab, or a fake in tests). */
export interface OpenedTab {
  location: { replace: (url: string) => void };
  close: () => void;
}

export interface OpenFileDeps {
  online: () => boolean;
  request: (target: FileTarget) => Promise<FileLink>;
  /** A blank new tab, opened now (inside the click); null when the browser refused it. */
  openTab: () => OpenedTab | null;
  /** Follows a link without leaving the app: a download, or a new tab when none could be opened first. */
  follow: (url: string, newTab: boolean) => void;
  error: (message: string) => void;
}

/** The Spanish reason a file did not open. */
export function openFailure(err: unknown): string {
  if (err instanceof ApiError) return err.offline ? MSG.fileOpenOffline : err.message;
  return MSG.fileOpenFailed;
}

/** Opens one file; answers whether it was handed to the browser. Call it synchronously from the click. */
export async function openFile(target: FileTarget, deps: OpenFileDeps): Promise<boolean> {
  if (!deps.online()) {
    deps.error(MSG.fileOpenOffline);
    return false;
  }
  const inTab = target.kind !== 'receipt_xml';
  const tab = inTab ? deps.openTab() : null;
  try {
    const { url } = await deps.request(target);
    if (tab) tab.location.replace(url);
    else deps.follow(url, inTab);
    return true;
  } catch (err) {
    tab?.close();
    deps.error(openFailure(err));
    return false;
  }
}

function blankTab(): OpenedTab | null {
  const tab = window.open('', '_blank');
  if (!tab) return null;
  try {
    // The file needs nothing of this page; and the blank tab says what is coming.
    tab.opener = null;
    tab.document.title = 'Abriendo…';
    tab.document.body.textContent = 'Abriendo el archivo…';
  } catch {
    // not ours to write (some browsers): it stays blank until the file arrives
  }
  return tab;
}

function followLink(url: string, newTab: boolean): void {
  const a = document.createElement('a');
  a.href = url;
  if (newTab) {
    a.target = '_blank';
    a.rel = 'noopener';
  } else {
    a.download = '';
  }
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
}

export function browserOpenFileDeps(error: (message: string) => void): OpenFileDeps {
  return { online: () => navigator.onLine, request: requestFileLink, openTab: blankTab, follow: followLink, error };
}

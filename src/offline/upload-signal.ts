// "An upload batch reached the server": the drain (page or service worker) tells the import dialog which
// ids the server gave the files, so their live statuses can be matched. A BroadcastChannel reaches every
// tab and the worker; where it is missing the dialog still works from the statuses it already has.
export const UPLOAD_CHANNEL = 'cc-uploads';

/** A file as the upload's answer lists it (DESIGN §3 upload files). */
export interface UploadedFile {
  id: string;
  name: string;
  status: string;
  reason?: string | null;
}

export interface UploadAck {
  opId: string;
  files: UploadedFile[];
}

function isUploadedFile(v: unknown): v is UploadedFile {
  if (!v || typeof v !== 'object') return false;
  const f = v as Record<string, unknown>;
  return (typeof f.id === 'string' || typeof f.id === 'number') && typeof f.name === 'string' && typeof f.status === 'string';
}

/** The files of an upload's `{response:{files:[…]}}`; anything else gives an empty list. */
export function uploadedFiles(body: unknown): UploadedFile[] {
  const files = (body as { response?: { files?: unknown } } | null)?.response?.files;
  if (!Array.isArray(files)) return [];
  return files.filter(isUploadedFile).map((f) => ({
    id: String(f.id), name: f.name, status: f.status, ...(typeof f.reason === 'string' ? { reason: f.reason } : {}),
  }));
}

function channel(): BroadcastChannel | null {
  return typeof BroadcastChannel === 'function' ? new BroadcastChannel(UPLOAD_CHANNEL) : null;
}

/** Called by the drain after the server acknowledged a files.upload operation. */
export function announceUpload(opId: string, body: unknown): void {
  const ch = channel();
  if (!ch) return;
  const ack: UploadAck = { opId, files: uploadedFiles(body) };
  ch.postMessage(ack);
  ch.close();
}

/** Listens for acknowledged uploads; returns the unsubscribe. */
export function onUploadAck(listener: (ack: UploadAck) => void): () => void {
  const ch = channel();
  if (!ch) return () => {};
  ch.onmessage = (e: MessageEvent<UploadAck>) => {
    if (e.data && typeof e.data.opId === 'string' && Array.isArray(e.data.files)) listener(e.data);
  };
  return () => ch.close();
}

// Other screens (the premium advert's 'start contact') open the support chat through this tiny bus,
// so they need not know where the widget lives. A request made before the widget mounts is kept.
export interface OpenChatRequest {
  message?: string;
}

type Listener = (req: OpenChatRequest) => void;

let listener: Listener | null = null;
let pending: OpenChatRequest | null = null;

/** Opens the support chat panel, with `message` prefilled in the composer when given. */
export function openSupportChat(message?: string): void {
  const req: OpenChatRequest = message ? { message } : {};
  if (listener) listener(req);
  else pending = req;
}

/** The widget registers here; returns the unsubscribe. Delivers a request made before it mounted. */
export function onOpenSupportChat(fn: Listener): () => void {
  listener = fn;
  if (pending) {
    const req = pending;
    pending = null;
    fn(req);
  }
  return () => {
    if (listener === fn) listener = null;
  };
}

/** Logout: a request left over from the previous user must not open the next user's chat. */
export function forgetOpenChatRequest(): void {
  pending = null;
}

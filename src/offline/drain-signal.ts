// "Something was enqueued": actions call requestDrain(); the page's drain triggers listen. Kept apart
// from drain-triggers.ts so writing an operation does not pull the trigger wiring in.
type Listener = () => void;

const listeners = new Set<Listener>();

/** Asks for a drain soon (no-op when no trigger is listening, e.g. in tests or the worker). */
export function requestDrain(): void {
  for (const l of [...listeners]) l();
}

export function onDrainRequested(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

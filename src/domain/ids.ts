// Client-made ids (DESIGN §3–4): UUIDv7, time-ordered, so offline creations need no remapping.
import { v7, validate, version } from 'uuid';

export function newId(): string {
  return v7();
}

/**
 * A UUIDv7 stamped with the instant `ms` (epoch milliseconds) instead of now: rows made later for
 * something that happened earlier (an imported CFDI's ticket) still sort by when it happened. `random`
 * (16 bytes) makes the id reproducible, as the demo's data needs; without it the bytes are random.
 */
export function newIdAt(ms: number, random?: Uint8Array): string {
  return v7({ msecs: ms, random });
}

export function isUuidV7(s: string): boolean {
  return validate(s) && version(s) === 7;
}

// Client-made ids (DESIGN §3–4): UUIDv7, time-ordered, so offline creations need no remapping.
import { v7, validate, version } from 'uuid';

export function newId(): string {
  return v7();
}

export function isUuidV7(s: string): boolean {
  return validate(s) && version(s) === 7;
}

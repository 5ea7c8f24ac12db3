// The app for an e2e test file: started before its tests, stopped after them.
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { startApp, type Running } from './harness';

/** Starts the app before the file's tests (handed to `set`) and makes `screens`, the folder for their screenshots; stops the app after them. */
export function appPerFile(set: (app: Running) => void, screens: string): void {
  let app: Running | undefined;
  beforeAll(async () => {
    app = await startApp();
    set(app);
    mkdirSync(screens, { recursive: true });
  });
  afterAll(async () => {
    await app?.stop();
  });
}

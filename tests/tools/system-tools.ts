// Programs the tests and benchmarks borrow from the machine, and the npm packages that stand in for them
// where the machine lacks them, so `npm install && npm test` needs nothing but Node and npm.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** A program on the PATH, or null. */
export function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not in this folder
    }
  }
  return null;
}

/** The machine's Chromium: CHROMIUM_PATH, else Debian's (or another distribution's) on the PATH; null if none. */
export function systemChromium(): string | null {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const path = onPath(name);
    if (path) return path;
  }
  return null;
}

/**
 * A Chromium to run: the machine's, else the one @sparticuz/chromium ships, unpacked into the temp folder on
 * first use (a few seconds). That package unpacks the libraries Chromium needs (libnss3 and the rest) only
 * where it believes it runs on AWS Lambda's Amazon Linux 2023, and the machines we fall back on lack them
 * too: the runtime variable it reads says so, and it then points LD_LIBRARY_PATH (of this process and the
 * browsers it starts) at them.
 */
export async function chromiumExecutable(opts: { system?: boolean } = {}): Promise<string> {
  const system = opts.system === false ? null : systemChromium();
  if (system) return system;
  process.env.AWS_LAMBDA_JS_RUNTIME ??= `nodejs${process.versions.node.split('.')[0]}.x`;
  const { default: chromium } = await import('@sparticuz/chromium');
  return chromium.executablePath();
}

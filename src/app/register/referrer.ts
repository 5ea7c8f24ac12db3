// Spec §4 Register: after sign-up, go back to the referring page of the same origin, else to #/.
/** A same-origin referrer that is not this app page itself, or null. */
export function referringPage(referrer: string, currentHref: string): string | null {
  if (!referrer) return null;
  let ref: URL;
  let here: URL;
  try {
    ref = new URL(referrer);
    here = new URL(currentHref);
  } catch {
    return null;
  }
  if (ref.origin !== here.origin) return null;
  if (ref.pathname === here.pathname && ref.search === here.search) return null;
  return ref.href;
}

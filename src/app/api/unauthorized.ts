// What a 401 to a signed-in call does, wired by main.tsx. Its own module so the entry chunk can wire it
// without taking the HTTP client (ky and src/offline/http.ts): that loads with the first screen that calls.
type UnauthorizedHandler = () => void;
let handler: UnauthorizedHandler = () => undefined;

/** main.tsx wires this to "clear the session, toast, go to login" (kept out of client.ts to avoid a cycle with the router). */
export function setUnauthorizedHandler(next: UnauthorizedHandler): void {
  handler = next;
}

export function unauthorized(): void {
  handler();
}

// Entry of a parse pool worker when the server runs from TypeScript sources (tsx): a worker thread does not
// inherit tsx's loader, so it registers it before loading the worker itself.
import { register } from 'tsx/esm/api';

register();
await import('./parse-worker.ts');

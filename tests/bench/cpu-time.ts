// CPU microseconds per document of `fn` over `docs`, for about `seconds`, after a warm-up. CPU time, not
// wall time: on a shared machine other work stretches the wall clock, not the CPU a document takes.
export function cpuUsPerDoc<T>(docs: readonly T[], seconds: number, fn: (d: T) => unknown): number {
  const warmUntil = performance.now() + 300;
  while (performance.now() < warmUntil) for (const d of docs) fn(d);
  let n = 0;
  const cpu = process.cpuUsage();
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    for (const d of docs) fn(d);
    n += docs.length;
  }
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / n;
}

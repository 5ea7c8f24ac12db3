import { readdirSync, readFileSync } from 'node:fs';

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

/**
 * CPU milliseconds (user + system) used so far by every process of a process group (Linux /proc; the
 * bench's server runs as tsx and its node child in one group). undefined where /proc is not there.
 */
export function processGroupCpuMs(pgid: number): number | undefined {
  let ids: string[];
  try {
    ids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return undefined;
  }
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  let ms = 0;
  for (const id of ids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${id}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // Fields after the command name (which may hold spaces): state is 3rd, pgrp 5th, utime 14th, stime 15th.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(f[2]) !== pgid) continue;
    ms += (Number(f[11]) + Number(f[12])) * tick;
  }
  return ms;
}

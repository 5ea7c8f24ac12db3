// Preloaded into the bench's server process (`node --import`): the event loop's delay as the server
// itself sees it. Each SIGUSR2 writes p99 and max (ms) since the last one to CC_BENCH_LOOP_FILE, and resets.
import { renameSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import process from 'node:process';

const file = process.env.CC_BENCH_LOOP_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  process.on('SIGUSR2', () => {
    const ms = (ns) => Math.round(ns / 1e5) / 10;
    // Written aside and renamed over: the bench polls the file, and writeFileSync empties it before
    // writing, so a read in between found no JSON ("Unexpected end of JSON input").
    writeFileSync(`${file}.tmp`, JSON.stringify({ p99: ms(histogram.percentile(99)), max: ms(histogram.max), at: Date.now() }));
    renameSync(`${file}.tmp`, file);
    histogram.reset();
  });
}

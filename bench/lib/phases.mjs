// Preloaded (`node --import`) into a benchmarked process by `npm run bench:process -- --phases`:
// splits its wall time into start (process start → first HTTP request created), calls (→ the
// last response's end) and end (→ exit), from undici's diagnostics channels (the fetch both the
// openai SDK and treebench's provider use), and prints them with the process's CPU on stderr as
// one `PHASES {json}` line. Worker threads print nothing.
import dc from 'node:diagnostics_channel';
import { isMainThread } from 'node:worker_threads';

let first;
let last;
dc.subscribe('undici:request:create', () => {
  first ??= performance.now();
});
dc.subscribe('undici:request:trailers', () => {
  last = performance.now();
});
if (isMainThread) {
  process.on('exit', () => {
    const cpu = process.cpuUsage();
    const end = performance.now();
    const s = (ms) => Math.round(ms) / 1000;
    const line = { start: s(first ?? end), calls: s((last ?? end) - (first ?? end)), end: s(end - (last ?? end)), cpu: s((cpu.user + cpu.system) / 1000) };
    process.stderr.write(`PHASES ${JSON.stringify(line)}\n`);
  });
}

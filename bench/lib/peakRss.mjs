// Preloaded into a child treebench process (`node --import ./bench/lib/peakRss.mjs …`) by
// benches that measure memory: at exit it writes the process's peak resident set size (KB,
// getrusage's maxrss, worker threads included) to the file named by TREEBENCH_PEAK_RSS_FILE.
import { writeFileSync } from 'node:fs';

const file = process.env.TREEBENCH_PEAK_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));

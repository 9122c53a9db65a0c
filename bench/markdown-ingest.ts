// Markdown ingestion cache (datasets/markdownIngest.ts) on the 590 AWS documentation pages, as
// ratios to parsing them with the cache off, measured in the same process (ideal for a second
// run: ~0; hashing the files must stay a small fraction of parsing them).
//
//   node bin/run-ts.mjs bench/markdown-ingest.ts [folder]   (default ../shared/datasets/aws-docs/documents)
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listFiles } from '../datasets/files.ts';
import { ingestMarkdown } from '../datasets/markdownIngest.ts';

const root = process.argv[2] ?? '../shared/datasets/aws-docs/documents';
const files = listFiles(root, ['.md', '.markdown']).filter((f) => process.argv[2] || f.includes(`${path.sep}doc_source${path.sep}`));
const sources = files.map((file) => ({ file, docId: path.relative(root, file) }));
const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'treebench-bench-md-'));
const ms = (f: () => void) => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};
const mb = files.reduce((n, f) => n + fs.statSync(f).size, 0) / 1e6;
console.log(`Markdown ingestion cache: ${files.length} files, ${mb.toFixed(1)} MB (ideal second run: 0 parsed, ~0 ms)`);
try {
  for (let round = 1; round <= 2; round++) {
    const hash = ms(() => {
      for (const f of files) createHash('sha256').update(fs.readFileSync(f)).digest('hex');
    });
    const off = ms(() => ingestMarkdown(sources, { cacheDir: null, quiet: true }));
    fs.rmSync(cacheDir, { recursive: true, force: true });
    let parsed = 0;
    const miss = ms(() => void (parsed = ingestMarkdown(sources, { cacheDir, quiet: true }).stats.parsed));
    let hitParsed = 0;
    const hit = ms(() => void (hitParsed = ingestMarkdown(sources, { cacheDir, quiet: true }).stats.parsed));
    console.log(
      `  round ${round}: parse, cache off ${off.toFixed(0)} ms; read+SHA-256 ${hash.toFixed(0)} ms (${(hash / off).toFixed(3)}); ` +
        `first run ${miss.toFixed(0)} ms (${(miss / off).toFixed(2)}, ${parsed} parsed); second run ${hit.toFixed(0)} ms (${(hit / off).toFixed(3)}, ${hitParsed} parsed)`,
    );
  }
} finally {
  fs.rmSync(cacheDir, { recursive: true, force: true });
}

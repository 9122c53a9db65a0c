// The corpus's identity in a manifest: a hash of what the documents say (ids, titles, trees,
// page texts, how the trees were built), not of where their files lie. The same corpus read from
// another folder — another checkout, another CI runner, `../shared` or an absolute path — hashes
// the same, so compare and gate pair its runs; a changed document does not.
//
// The hash is SHA-256 of the JSON of the document list without `source`, fed to the hash one
// document at a time: the bytes are those of one JSON.stringify of the whole list (so manifests
// written before keep pairing with new ones), but no string larger than one document is built —
// at 344 filings the whole list's JSON was 356 million characters and 0.64 GB at its peak.
import { createHash } from 'node:crypto';
import type { DocTree } from '../types.ts';

const withoutSource = (key: string, value: unknown): unknown => (key === 'source' && typeof value === 'string' ? undefined : value);

/**
 * The corpus's hash. `onProgress(done, total)` is called after each document (a progress line
 * for corpora whose hashing takes seconds: 344 filings took 4–9 s).
 */
export function corpusHash(docs: readonly DocTree[], onProgress?: (done: number, total: number) => void): string {
  const h = createHash('sha256').update('[');
  docs.forEach((doc, i) => {
    if (i > 0) h.update(',');
    // An array element that serialises to nothing is written as null, as JSON.stringify does.
    h.update(JSON.stringify(doc, withoutSource) ?? 'null');
    onProgress?.(i + 1, docs.length);
  });
  return h.update(']').digest('hex');
}

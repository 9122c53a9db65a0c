// The corpus's identity in a manifest: a hash of what the documents say (ids, titles, trees,
// page texts, how the trees were built), not of where their files lie. The same corpus read from
// another folder — another checkout, another CI runner, `../shared` or an absolute path — hashes
// the same, so compare and gate pair its runs; a changed document does not.
import { createHash } from 'node:crypto';
import type { DocTree } from '../types.ts';

/** JSON of the documents without `source` (the file each came from). */
export function corpusContent(docs: readonly DocTree[]): string {
  return JSON.stringify(docs, (key, value) => (key === 'source' && typeof value === 'string' ? undefined : value));
}

export function corpusHash(docs: readonly DocTree[]): string {
  return createHash('sha256').update(corpusContent(docs)).digest('hex');
}

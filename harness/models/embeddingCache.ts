// On-disk embedding cache: chunk vectors keyed by (embedder cache key, SHA-256 of the chunk text),
// under `.treebench/embeddings/<key digest>/`. A second run of a config embeds nothing (and pays
// nothing for `openai:` embedders); a changed document re-embeds only the chunks whose text changed.
//
// Layout: one folder per embedder key (id + options that shape the vectors, never secrets), with a
// `key.json` saying which key it is, and append-only "pack" files. Each run that embedded anything
// writes new packs (temporary file, then rename, so a pack is whole or absent); nothing is rewritten
// in place. Entry format, little-endian:
//   32 bytes  SHA-256 of the chunk text
//   u32       dim
//   u32       nnz: 0xFFFFFFFF = dense (dim × f32 follow), else nnz × u32 indices then nnz × f32 values
// Sparse entries keep feature-hashed vectors (mostly zeros) small. Packs are indexed on open and
// entries read on demand by position, so a large cache is not held in memory. A new pack is
// written as it fills: its entries are encoded into one reused megabyte buffer, which goes to the
// pack's temporary file whenever it is full, and the rename at PACK_BYTES (or close) makes it
// readable. Entries are never all held to be written at once (a 23,000-chunk build held 13.6 MB of
// them, and then a joined copy), nor is a Buffer made per entry (23,000 of them were ~23 MB of
// garbage in the index build's peak: `npm run bench:scale`); a closing cache does not index the
// pack it has just written (it would drop that index at once).
import { createHash, hash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { safeOutput } from '../files/output.ts';
import { sweepStaleTemps, tempPathFor, writeBuffers, writeViaTemp } from '../files/tempFiles.ts';
import { makeDirectory } from '../files/makeDirectory.ts';
import { fsyncDir } from '../files/atomicFile.ts';

const MAGIC = Buffer.from('TBEMB1\n\0', 'latin1');
const DENSE = 0xffffffff;
/** A new pack is closed and made readable once this many bytes of entries are in it. */
const PACK_BYTES = 32 * 1024 * 1024;
/** New entries are queued in a buffer of this size, appended to the pack's temporary file when full. */
const WRITE_BYTES = 1024 * 1024;

/**
 * SHA-256 of a chunk text (UTF-8). One-shot: no Hash object, whose native state, per chunk of a
 * large corpus, stays in the process's memory until a collection.
 */
export const textHash = (text: string): Buffer => hash('sha256', text, 'buffer');

interface Location {
  fd: number;
  offset: number;
  length: number;
}

export interface EmbeddingCacheStats {
  hits: number;
  misses: number;
  /** Entries written by this process. */
  written: number;
}

export class EmbeddingCache {
  readonly stats: EmbeddingCacheStats = { hits: 0, misses: 0, written: 0 };
  private readonly index = new Map<string, Location>();
  private readonly fds: number[] = [];
  /** Entries queued for the pack being written, encoded in place (allocated at the first put). */
  private queue: Buffer | null = null;
  private queued = 0;
  /** The pack being written: its final path, its temporary file and bytes of entries in it. */
  private packing: { path: string; tmp: string; fd: number; bytes: number } | null = null;

  private constructor(readonly dir: string) {}

  /** Opens (creating if needed) the cache folder of one embedder key inside `root`. */
  static open(root: string, embedderKey: string): EmbeddingCache {
    const digest = createHash('sha256').update(embedderKey).digest('hex').slice(0, 32);
    const dir = join(root, digest);
    makeDirectory(dir);
    // A pack or key file a killed run was writing is a leftover temporary file, never a torn pack.
    sweepStaleTemps(dir, 0);
    const keyFile = join(dir, 'key.json');
    // Redacted like every file treebench writes: the key names an embedder, and a base URL may carry a password.
    if (!existsSync(keyFile)) writeViaTemp(keyFile, safeOutput(JSON.stringify({ embedder: embedderKey }), 'json') + '\n');
    const cache = new EmbeddingCache(dir);
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.pack')).sort()) cache.indexPack(join(dir, name));
    return cache;
  }

  get entries(): number {
    return this.index.size;
  }

  /** Reads a pack's entry headers; a pack that is not ours or cut short is skipped up to the damage. */
  private indexPack(path: string): void {
    const fd = openSync(path, 'r');
    this.fds.push(fd);
    const size = statSync(path).size;
    const head = Buffer.alloc(40);
    if (size < MAGIC.length || readSync(fd, head, 0, MAGIC.length, 0) !== MAGIC.length || !head.subarray(0, MAGIC.length).equals(MAGIC)) return;
    let pos = MAGIC.length;
    while (pos + 40 <= size) {
      readSync(fd, head, 0, 40, pos);
      const dim = head.readUInt32LE(32);
      const nnz = head.readUInt32LE(36);
      const length = 40 + (nnz === DENSE ? dim * 4 : nnz * 8);
      if (pos + length > size) break;
      this.index.set(head.toString('hex', 0, 32), { fd, offset: pos, length });
      pos += length;
    }
  }

  /** Whether a chunk text hash is cached (no read, no hit or miss counted). */
  has(hash: Buffer): boolean {
    return this.index.has(hash.toString('hex'));
  }

  /** The cached vector of a chunk text hash, or undefined. */
  get(hash: Buffer): Float32Array | undefined {
    const loc = this.index.get(hash.toString('hex'));
    if (!loc) {
      this.stats.misses++;
      return undefined;
    }
    const buf = Buffer.allocUnsafe(loc.length);
    readSync(loc.fd, buf, 0, loc.length, loc.offset);
    // DataView's accessors are V8 builtins, fast from the first call; Buffer's readFloatLE is
    // JavaScript, slow until compiled (a run's first index reads or writes every vector once).
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const dim = view.getUint32(32, true);
    const nnz = view.getUint32(36, true);
    const v = new Float32Array(dim);
    if (nnz === DENSE) {
      for (let j = 0; j < dim; j++) v[j] = view.getFloat32(40 + 4 * j, true);
    } else {
      const valuesAt = 40 + 4 * nnz;
      for (let k = 0; k < nnz; k++) v[view.getUint32(40 + 4 * k, true)] = view.getFloat32(valuesAt + 4 * k, true);
    }
    this.stats.hits++;
    return v;
  }

  /** Queues a vector for the next pack (written by flush, or when enough has queued). */
  put(hash: Buffer, v: Float32Array): void {
    let nnz = 0;
    for (let j = 0; j < v.length; j++) if (v[j] !== 0) nnz++;
    const sparse = nnz * 2 < v.length;
    const length = 40 + (sparse ? nnz * 8 : v.length * 4);
    if (this.queued + length > WRITE_BYTES) this.writePending();
    // An entry larger than the queue (a dense vector of over 262,000 dimensions) is written alone.
    const alone = length > WRITE_BYTES;
    const buf = alone ? Buffer.allocUnsafe(length) : (this.queue ??= Buffer.allocUnsafeSlow(WRITE_BYTES));
    const at = alone ? 0 : this.queued;
    hash.copy(buf, at, 0, 32);
    const view = new DataView(buf.buffer, buf.byteOffset + at, length);
    view.setUint32(32, v.length, true);
    view.setUint32(36, sparse ? nnz : DENSE, true);
    if (sparse) {
      let k = 0;
      for (let j = 0; j < v.length; j++) {
        if (v[j] === 0) continue;
        view.setUint32(40 + 4 * k, j, true);
        view.setFloat32(40 + 4 * nnz + 4 * k, v[j], true);
        k++;
      }
    } else {
      for (let j = 0; j < v.length; j++) view.setFloat32(40 + 4 * j, v[j], true);
    }
    this.stats.written++;
    if (alone) this.writeToPack(buf);
    else {
      this.queued += length;
      if (this.queued === WRITE_BYTES) this.writePending();
    }
    if (this.packing && this.packing.bytes >= PACK_BYTES) this.flush();
  }

  /** Appends the queued entries to the pack being written. */
  private writePending(): void {
    if (this.queued === 0) return;
    const bytes = this.queue!.subarray(0, this.queued);
    this.queued = 0;
    this.writeToPack(bytes);
  }

  /** Appends entries to the pack being written (started when there is none). */
  private writeToPack(entries: Buffer): void {
    if (!this.packing) {
      const name = `${Date.now().toString(36).padStart(9, '0')}-${process.pid}-${randomBytes(4).toString('hex')}.pack`;
      const path = join(this.dir, name);
      const tmp = tempPathFor(path);
      this.packing = { path, tmp, fd: openSync(tmp, 'w'), bytes: 0 };
      try {
        writeBuffers(this.packing.fd, [MAGIC]);
      } catch (err) {
        this.abandonPack();
        throw err;
      }
    }
    const p = this.packing;
    try {
      writeBuffers(p.fd, [entries]);
    } catch (err) {
      this.abandonPack();
      throw err;
    }
    p.bytes += entries.length;
  }

  /** A pack that could not be written: its temporary file goes, its entries are not cached. */
  private abandonPack(): void {
    const p = this.packing;
    this.packing = null;
    this.queued = 0;
    if (!p) return;
    try {
      closeSync(p.fd);
    } catch {
      // already closed
    }
    try {
      unlinkSync(p.tmp);
    } catch {
      // never created, or already gone
    }
  }

  /**
   * Finishes the pack being written (renamed into place: whole or absent) and makes its entries
   * readable. Its bytes reach the disk before the rename does: a pack carries no checksum, so after
   * a power cut a renamed pack whose data blocks were never written would hand out wrong vectors.
   * (One fsync per pack of up to 32 MB; the folder's after the rename, so the name stays too.)
   */
  flush(): void {
    this.finishPack(true);
  }

  /** flush(), making the finished pack's entries readable only when `index` is true. */
  private finishPack(index: boolean): void {
    this.writePending();
    const p = this.packing;
    if (!p) return;
    try {
      fsyncSync(p.fd);
      closeSync(p.fd);
      renameSync(p.tmp, p.path);
      fsyncDir(this.dir);
    } catch (err) {
      this.abandonPack();
      throw err;
    }
    this.packing = null;
    if (index) this.indexPack(p.path);
  }

  /** Flushes and releases the pack files. */
  close(): void {
    this.finishPack(false);
    this.queue = null;
    for (const fd of this.fds.splice(0)) closeSync(fd);
    this.index.clear();
  }
}

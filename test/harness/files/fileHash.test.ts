import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileSha256 } from '../../../harness/files/fileHash.ts';

const dir = mkdtempSync(join(tmpdir(), 'treebench-filehash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('fileSha256', () => {
  it('is the SHA-256 of the whole file, whatever its size against the read buffer', () => {
    // Empty, small, exactly one buffer, and several buffers plus a tail (64 KiB reads).
    for (const size of [0, 3, 64 * 1024, 200_001]) {
      const bytes = Buffer.alloc(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 131 + (i >> 9)) & 0xff;
      const file = join(dir, `f${size}`);
      writeFileSync(file, bytes);
      expect(fileSha256(file), `${size} bytes`).toBe(sha(bytes));
    }
  });

  it('names the file it cannot read', () => {
    expect(() => fileSha256(join(dir, 'missing.md'))).toThrow(/missing\.md/);
  });
});

import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeBuffers } from '../../../harness/files/tempFiles.ts';

const dir = mkdtempSync(join(tmpdir(), 'treebench-buffers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('writeBuffers', () => {
  it('appends the parts in order, across several writev batches and calls', () => {
    // 2,500 parts (three batches of at most 1,024), sizes 0–600 bytes, contents unlike each other.
    const parts = Array.from({ length: 2500 }, (_, i) => Buffer.alloc((i * 37) % 601, i & 0xff));
    const file = join(dir, 'parts.bin');
    const fd = openSync(file, 'w');
    try {
      writeBuffers(fd, parts.slice(0, 1500));
      writeBuffers(fd, []);
      writeBuffers(fd, parts.slice(1500));
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(file).equals(Buffer.concat(parts))).toBe(true);
  });
});

// RunStore reads records.jsonl a block (1 MiB) at a time. Checked against the plain way (read
// the whole file, split on newlines, parse) on files whose lines cross block boundaries, with
// multi-byte characters cut by a boundary, blank and CRLF lines, a cut-short last line and a
// corrupt line in the middle.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../../harness/run/store.ts';
import { mulberry32 } from '../../../harness/run/random.ts';
import type { RunRecord } from '../../../harness/types.ts';

const BLOCK = 1 << 20;

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'treebench-read-'));
  made.push(dir);
  return dir;
};

function folder(text: string | Buffer): RunStore {
  const dir = tempDir();
  writeFileSync(join(dir, 'records.jsonl'), text);
  return RunStore.at(dir);
}

/** The reference: the whole file at once. */
const plain = (text: string) => text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as unknown);

/** Records of random sizes, some far larger than a block, with text in several scripts. */
function lines(n: number, seed: number): string[] {
  const r = mulberry32(seed);
  const alphabet = ['a', 'é', '€', '𝄞', '中', ' ', '"', '\\', '\u2028'];
  const piece = Array.from({ length: 997 }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');
  return Array.from({ length: n }, (_, i) => {
    const size = r() < 0.05 ? Math.floor(r() * 2.5 * BLOCK) : Math.floor(r() * 4000);
    const from = Math.floor(r() * 900);
    const answer = piece.repeat(Math.ceil((size + from) / piece.length) + 1).slice(from, from + size);
    return JSON.stringify({ strategy: 's', questionId: `q${i}`, repeat: 0, answer, error: null });
  });
}

describe('RunStore.forEachRecord', () => {
  it('reads what the whole-file reader reads, across block boundaries', () => {
    const text = lines(200, 3).join('\n') + '\n';
    expect(Buffer.byteLength(text)).toBeGreaterThan(3 * BLOCK);
    const seen: unknown[] = [];
    folder(text).forEachRecord((r) => void seen.push(r));
    expect(seen).toEqual(plain(text));
  });

  it('puts each byte of a 4-byte character, and the newline after it, on a block boundary', () => {
    const prefix = Buffer.byteLength('{"strategy":"s","repeat":0,"questionId":"a","answer":"');
    // The character starts j bytes before the boundary: j = 1..3 cut it, 4 ends it there, 5 and
    // 6 cut the closing `"}`, 6 puts the newline at the boundary, 7 and 8 the CR and LF after it.
    for (let j = 0; j <= 8; j++) {
      const first = JSON.stringify({ strategy: 's', repeat: 0, questionId: 'a', answer: 'x'.repeat(BLOCK - j - prefix) + '𝄞' });
      expect(Buffer.from(first).subarray(BLOCK - j, BLOCK - j + 4).toString()).toBe('𝄞');
      const text = `${first}\n\r\n${JSON.stringify({ strategy: 's', repeat: 0, questionId: 'b', answer: '€' })}\r\n`;
      const seen: unknown[] = [];
      folder(text).forEachRecord((r) => void seen.push(r));
      expect(seen, `j ${j}`).toEqual(plain(text));
    }
  });

  it('drops a cut-short last line, and with repair cuts it off the file at the right byte', () => {
    const full = lines(60, 9);
    const text = full.join('\n') + '\n' + full[0]!.slice(0, 50);
    const store = folder(text);
    expect(store.readRecords().map((r) => r.questionId)).toEqual(full.map((_, i) => `q${i}`));
    expect(statSync(store.recordsPath).size).toBe(Buffer.byteLength(text));
    store.readRecords({ repair: true });
    expect(readFileSync(store.recordsPath, 'utf8')).toBe(full.join('\n') + '\n');
    // A cut line followed only by blank lines is a cut line too.
    const trailing = folder(full.slice(0, 2).join('\n') + '\n{"strategy":"s","questionId":"q2","ans\n\n  \n');
    expect(trailing.readRecords({ repair: true }).map((r: RunRecord) => r.questionId)).toEqual(['q0', 'q1']);
    expect(readFileSync(trailing.recordsPath, 'utf8')).toBe(full.slice(0, 2).join('\n') + '\n');
  });

  it('names the line of a corrupt record in the middle of the file, after any block boundary', () => {
    const full = lines(150, 5);
    const broken = [...full.slice(0, 120), '{"broken', ...full.slice(120)];
    const store = folder(broken.join('\n') + '\n');
    expect(Buffer.byteLength(broken.slice(0, 120).join('\n'))).toBeGreaterThan(BLOCK);
    expect(() => store.forEachRecord(() => {})).toThrow(`${store.recordsPath}:121: corrupt record line (not JSON) in the middle of the file`);
    // Nothing was cut off the file.
    expect(readFileSync(store.recordsPath, 'utf8')).toBe(broken.join('\n') + '\n');
  });

  it('reads no file as no records', () => {
    expect(RunStore.at(tempDir()).readRecords()).toEqual([]);
  });
});

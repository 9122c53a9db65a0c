// Paths and temp files for the datasets tests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Third-party data lives outside the repository (see ../shared/datasets/README.md). */
export const SHARED = fileURLToPath(new URL('../../../shared/datasets/', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('../fixtures/datasets/', import.meta.url));

/** Writes files into a fresh temp folder and returns its path. */
export function tmpFiles(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'treebench-datasets-'));
  for (const [name, content] of Object.entries(files)) {
    const p = path.join(dir, name);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
  return dir;
}

/** Runs fn and returns the error it throws (fails the test when it does not throw). */
export function thrown(fn: () => unknown): Error & { file?: string; line?: number; field?: string } {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

export async function rejected(p: Promise<unknown>): Promise<Error & { file?: string; line?: number; field?: string }> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

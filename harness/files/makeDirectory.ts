// Creating a folder and its missing parents, one mkdir at a time. Node's own recursive mkdir
// retries a parent that "does not exist" forever when the kernel says ENOENT for a folder that is
// there, as /proc does (`run.outDir: /proc/self` spun a core and never returned): here every
// missing level is made once, and the first failure is the caller's error, with its code.
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export function makeDirectory(dir: string): void {
  const missing: string[] = [];
  for (let p = resolve(dir); ; p = dirname(p)) {
    try {
      if (!statSync(p).isDirectory()) throw Object.assign(new Error(`${p} is not a folder`), { code: 'ENOTDIR' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(p) === p) throw err;
      missing.push(p);
    }
  }
  for (const p of missing.reverse()) {
    try {
      mkdirSync(p);
    } catch (err) {
      // Made meanwhile by another process: fine; anything else is the caller's to report.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(p).isDirectory()) throw err;
    }
  }
}

// The folders that hold treebench's TypeScript sources: tsconfig.json's `include` without tests
// and benchmarks (a new source folder counts as soon as it is listed there). Shared by the build
// (bin/build.mjs) and the command's stale-build check (bin/treebench.mjs).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function sourceDirs(root) {
  try {
    const text = readFileSync(join(root, 'tsconfig.json'), 'utf8').replace(/^\s*\/\/.*$/gm, '');
    return JSON.parse(text).include.filter((d) => !['test', 'bench'].includes(d) && existsSync(join(root, d)));
  } catch {
    return ['harness', 'strategies', 'datasets', 'reports', 'cli'];
  }
}

/** Whether the compiled JavaScript is at least as new as every TypeScript source (`npm run build`). */
export function buildIsCurrent(root) {
  const stamp = join(root, '.build-stamp');
  if (!existsSync(join(root, 'cli', 'main.js')) || !existsSync(stamp)) return false;
  const built = statSync(stamp).mtimeMs;
  for (const dir of sourceDirs(root)) {
    for (const f of readdirSync(join(root, dir), { recursive: true })) {
      if (String(f).endsWith('.ts') && statSync(join(root, dir, String(f))).mtimeMs > built) return false;
    }
  }
  return true;
}

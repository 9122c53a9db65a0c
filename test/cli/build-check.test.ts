// The command's stale-build check (bin/source-dirs.mjs): a checkout whose TypeScript sources are
// newer than its build runs the sources, never the stale bundle. The build's listing of its
// sources answers quickly; whatever it cannot vouch for is listed again.
import { afterEach, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIsCurrent, sourceListing } from '../../bin/source-dirs.mjs';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

const HOUR_AGO = new Date(Date.now() - 3_600_000);
const LATER = new Date(Date.now() + 3_600_000);

/** A checkout with index.ts, harness/a.ts and harness/sub/b.ts, built an hour after its sources were written. */
function builtCheckout(withListing = true): string {
  const root = mkdtempSync(join(tmpdir(), 'treebench-build-check-'));
  roots.push(root);
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ include: ['index.ts', 'harness', 'test'] }));
  mkdirSync(join(root, 'harness', 'sub'), { recursive: true });
  for (const f of ['index.ts', 'harness/a.ts', 'harness/sub/b.ts', 'harness/sub/b.d.ts']) writeFileSync(join(root, f), '');
  for (const p of ['index.ts', 'harness/a.ts', 'harness/sub/b.ts', 'harness/sub/b.d.ts', 'harness/sub', 'harness']) utimesSync(join(root, p), HOUR_AGO, HOUR_AGO);
  for (const f of ['dist/main.js', 'cli/main.js']) {
    mkdirSync(join(root, f, '..'), { recursive: true });
    writeFileSync(join(root, f), '');
  }
  writeFileSync(join(root, '.build-stamp'), JSON.stringify({ builtAt: 'now', ...(withListing ? { sources: sourceListing(root) } : {}) }));
  return root;
}

describe('buildIsCurrent', () => {
  it('lists what the build compiled: the source entries, their folders and the .ts sources (not declarations)', () => {
    const root = builtCheckout();
    expect(sourceListing(root)).toEqual({ entries: ['index.ts', 'harness'], dirs: ['harness', 'harness/sub'], files: ['index.ts', 'harness/a.ts', 'harness/sub/b.ts'] });
  });

  for (const withListing of [true, false]) {
    describe(withListing ? 'with the build listing its sources' : 'with a stamp of an older build (no listing)', () => {
      it('is current when no source changed', async () => {
        expect(await buildIsCurrent(builtCheckout(withListing))).toBe(true);
      });

      it('is stale when a source in a subfolder was edited after the build', async () => {
        const root = builtCheckout(withListing);
        utimesSync(join(root, 'harness/sub/b.ts'), LATER, LATER);
        expect(await buildIsCurrent(root)).toBe(false);
      });

      it('is stale when a source was added after the build', async () => {
        const root = builtCheckout(withListing);
        writeFileSync(join(root, 'harness/sub/c.ts'), '');
        utimesSync(join(root, 'harness/sub/c.ts'), LATER, LATER);
        utimesSync(join(root, 'harness/sub'), LATER, LATER);
        expect(await buildIsCurrent(root)).toBe(false);
      });

      it('stays current when a source was removed, or a folder changed without a newer source', async () => {
        const root = builtCheckout(withListing);
        rmSync(join(root, 'harness/a.ts'));
        utimesSync(join(root, 'harness'), LATER, LATER);
        expect(await buildIsCurrent(root)).toBe(true);
      });

      it('is stale without a complete build', async () => {
        const root = builtCheckout(withListing);
        rmSync(join(root, 'dist/main.js'));
        expect(await buildIsCurrent(root)).toBe(false);
      });
    });
  }

  it('takes the listing at its word while no folder changed (it does not list the folders again)', async () => {
    // Not something an editor can do: a new file changes its folder's time. Here the folder's
    // time is put back, so only a listing of the folder would see the newer file.
    const root = builtCheckout();
    writeFileSync(join(root, 'harness/sub/ghost.ts'), '');
    utimesSync(join(root, 'harness/sub/ghost.ts'), LATER, LATER);
    utimesSync(join(root, 'harness/sub'), HOUR_AGO, HOUR_AGO);
    expect(await buildIsCurrent(root)).toBe(true);
    // The same tree under a stamp without a listing: the full check lists it and sees the file.
    writeFileSync(join(root, '.build-stamp'), JSON.stringify({ builtAt: 'now' }));
    expect(await buildIsCurrent(root)).toBe(false);
  });
});

describe('prepare (bin/prepare.mjs)', () => {
  /** builtCheckout with the real prepare and stale check, and a stand-in build that leaves a mark. */
  function preparable(): string {
    const root = builtCheckout();
    mkdirSync(join(root, 'bin'));
    for (const f of ['prepare.mjs', 'source-dirs.mjs']) copyFileSync(join(process.cwd(), 'bin', f), join(root, 'bin', f));
    writeFileSync(join(root, 'bin', 'build.mjs'), "import { writeFileSync } from 'node:fs';\nwriteFileSync(new URL('../built', import.meta.url), '');\n");
    return root;
  }
  const prepare = (root: string, npmCommand: string) => {
    execFileSync(process.execPath, [join(root, 'bin', 'prepare.mjs')], { env: { ...process.env, npm_command: npmCommand } });
    return existsSync(join(root, 'built'));
  };

  it('keeps a current build when npx installs the checkout into its cache (npm exec), and builds for npm ci, install and pack', () => {
    expect(prepare(preparable(), 'exec')).toBe(false);
    for (const command of ['ci', 'install', 'pack']) expect(prepare(preparable(), command)).toBe(true);
  });

  it('builds under npm exec too when a source is newer than the build', () => {
    const root = preparable();
    utimesSync(join(root, 'harness/a.ts'), LATER, LATER);
    expect(prepare(root, 'exec')).toBe(true);
  });
});

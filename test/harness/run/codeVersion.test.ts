// The manifest's code version, read from a checkout's files: the commit (loose ref, packed-refs,
// detached HEAD, a worktree) as git itself names it, and the dirty flag from the build stamp
// when the running code is that build of that commit.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeVersion, headCommit } from '../../../harness/run/codeVersion.ts';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'treebench-code-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', version: '9.8.7' }));
  git(dir, 'init', '-q');
  git(dir, 'add', 'package.json');
  git(dir, 'commit', '-q', '-m', 'one');
  return dir;
}

describe('headCommit', () => {
  it('reads the commit HEAD names as git does: loose ref, packed ref, detached, a worktree', () => {
    const dir = repo();
    expect(headCommit(dir)).toBe(git(dir, 'rev-parse', 'HEAD'));
    writeFileSync(join(dir, 'a.txt'), 'a');
    git(dir, 'add', 'a.txt');
    git(dir, 'commit', '-q', '-m', 'two');
    git(dir, 'pack-refs', '--all');
    expect(headCommit(dir)).toBe(git(dir, 'rev-parse', 'HEAD'));
    git(dir, 'checkout', '-q', '--detach', 'HEAD~1');
    expect(headCommit(dir)).toBe(git(dir, 'rev-parse', 'HEAD'));
    git(dir, 'checkout', '-q', 'main');
    const wt = join(dir, 'wt');
    git(dir, 'worktree', 'add', '-q', '-b', 'side', wt, 'HEAD~1');
    expect(headCommit(wt)).toBe(git(wt, 'rev-parse', 'HEAD'));
    expect(headCommit(wt)).not.toBe(headCommit(dir));
  });

  it('is null outside a checkout of the package itself', () => {
    const outer = repo();
    // An installed copy inside a user's project: the project's repository is not treebench's.
    const installed = join(outer, 'node_modules', 'treebench');
    mkdirSync(installed, { recursive: true });
    expect(headCommit(installed)).toBeNull();
    expect(headCommit(mkdtempSync(join(tmpdir(), 'treebench-nogit-')))).toBeNull();
  });
});

describe('codeVersion', () => {
  it('takes the dirty flag from the build stamp of the same commit, from git status for sources', () => {
    const dir = repo();
    const commit = headCommit(dir)!;
    // The tree is clean; a stamp saying otherwise shows the stamp was read, not git.
    writeFileSync(join(dir, '.build-stamp'), JSON.stringify({ builtAt: 'x', commit, dirty: true }));
    expect(codeVersion(dir, true)).toEqual({ version: '9.8.7', commit, dirty: true, node: process.version });
    // Running from the sources: the stamp does not describe them.
    expect(codeVersion(dir, false).dirty).toBe(false);

    const other = repo();
    writeFileSync(join(other, '.build-stamp'), JSON.stringify({ builtAt: 'x', commit: 'f'.repeat(40), dirty: false }));
    writeFileSync(join(other, 'package.json'), JSON.stringify({ name: 'x', version: '9.8.7', edited: true }));
    // A stamp of another commit does not describe HEAD: unknown for the build, git status for the sources.
    expect(codeVersion(other, true).dirty).toBeNull();
    expect(codeVersion(other, false).dirty).toBe(true);
    const plain = mkdtempSync(join(tmpdir(), 'treebench-nogit-'));
    writeFileSync(join(plain, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0' }));
    expect(codeVersion(plain, true)).toMatchObject({ version: '1.0.0', commit: null, dirty: null });
  });
});

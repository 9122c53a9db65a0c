// Child processes for the resilience suites: `node bin/treebench.mjs`, exactly what users run.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeConfig } from './helpers.ts';

const BIN = resolve('bin/treebench.mjs');

export interface Child {
  proc: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

export function start(args: string[]): Child {
  const proc = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((done) =>
    proc.on('exit', (code, signal) => done({ code, signal, stderr })),
  );
  return { proc, exited };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitFor(cond: () => boolean, timeoutMs = 60_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > timeoutMs) throw new Error('timed out waiting');
    await sleep(20);
  }
}

/** An offline run slow enough (simulated latency) to be interrupted while it writes records. */
export function slowConfig(dir: string, latencyMs: number, limit = 40): string {
  return writeConfig(dir, {
    model: { provider: 'offline', latency: { meanMs: latencyMs, jitterMs: latencyMs / 2, seed: 3 } },
    strategies: ['node-list', 'layerwise'],
    reports: ['md', 'csv', 'json'],
    run: { limit, concurrency: 2, outDir: join(dir, 'runs') },
  });
}

/**
 * Where to kill the next child, drawn at random among the windows a kill can hit:
 *   start-up  a random moment in the first seconds (before or while the manifest is written)
 *   records   a few milliseconds after the records file grew by 1-8 lines (mid-append)
 *   end       a few milliseconds after the final manifest is written (summary and report writes)
 */
export function killPoint(rand: () => number, linesNow: number, total: number, t0: number, folder: string): { what: string; due: () => boolean } {
  const mode = rand();
  if (mode < 0.2) {
    const at = t0 + rand() * 4000;
    return { what: 'start-up', due: () => Date.now() >= at };
  }
  // While records are missing, kill mid-append; the final writes are the target once all are in.
  if (linesNow < total) {
    const want = linesNow + 1 + Math.floor(rand() * 8);
    const extra = rand() * 15;
    let seenAt = 0;
    return {
      what: 'records',
      due: () => {
        if (!seenAt && lineCount(join(folder, 'records.jsonl')) >= want) seenAt = Date.now();
        return seenAt > 0 && Date.now() - seenAt >= extra;
      },
    };
  }
  const extra = rand() * 40;
  let seenAt = 0;
  return {
    what: 'end',
    due: () => {
      if (!seenAt && finishedSince(join(folder, 'manifest.json'), t0)) seenAt = Date.now();
      return seenAt > 0 && Date.now() - seenAt >= extra;
    },
  };
}

function finishedSince(manifestPath: string, t0: number): boolean {
  try {
    if (statSync(manifestPath).mtimeMs < t0) return false;
    return JSON.parse(readFileSync(manifestPath, 'utf8')).finishedAt !== null;
  } catch {
    return false;
  }
}

export const lineCount = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean).length : 0);


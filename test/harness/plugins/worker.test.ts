// The worker process door on its own (harness/plugins/worker.ts): a worker that hangs is
// restarted so the questions behind it are answered, and an interrupted run stops waiting for
// the questions in flight. The workers here are serial, as most first workers are.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StrategyWorker } from '../../../harness/plugins/worker.ts';

/** A serial worker: answers one line at a time; `hang` sleeps instead of answering. */
const SERIAL = `
import json, sys, time
for line in sys.stdin:
    req = json.loads(line)
    if req["questionId"] == sys.argv[1]:
        time.sleep(600)
    sys.stdout.write(json.dumps({"questionId": req["questionId"], "answer": "ok " + req["questionId"]}) + "\\n")
    sys.stdout.flush()
`;

function worker(hangOn: string) {
  const dir = mkdtempSync(join(tmpdir(), 'treebench-worker-'));
  writeFileSync(join(dir, 'serial.py'), SERIAL);
  const logPath = join(dir, 'logs', 'w.stderr.log');
  return { w: new StrategyWorker({ argv: ['python3', './serial.py', hangOn], cwd: dir, logPath, label: 'w (strategies[0].command)' }), logPath };
}

/** A worker running the Python `code` (written to `<name>.py` in a folder of its own), labelled `w`. */
function scriptWorker(name: string, code: string, opts: { ready?: boolean; readyTimeoutMs?: number; args?: string[] } = {}): StrategyWorker {
  const { args = [], ...rest } = opts;
  const dir = mkdtempSync(join(tmpdir(), 'treebench-worker-'));
  writeFileSync(join(dir, `${name}.py`), code);
  return new StrategyWorker({ argv: ['python3', `./${name}.py`, ...args], cwd: dir, logPath: join(dir, 'logs', 'w.log'), label: 'w', ...rest });
}

const settle = (p: Promise<unknown>) => p.then((v) => ({ ok: v }), (e: Error) => ({ error: e.message }));

describe('a worker that hangs', () => {
  it('is restarted after the timeout, so the questions queued behind it are answered', async () => {
    const { w, logPath } = worker('q2');
    await w.start();
    try {
      const out = await Promise.all(['q1', 'q2', 'q3', 'q4'].map((q) => settle(w.request(q, { questionId: q }, 1500))));
      expect(out[0]).toEqual({ ok: { questionId: 'q1', answer: 'ok q1' } });
      expect(out[1]).toEqual({ error: 'no reply within 1500 ms (timeoutMs); the worker answered nothing sent with or after it, so it was restarted' });
      expect(out[2]).toEqual({ ok: { questionId: 'q3', answer: 'ok q3' } });
      expect(out[3]).toEqual({ ok: { questionId: 'q4', answer: 'ok q4' } });
    } finally {
      await w.close();
    }
    expect(readFileSync(logPath, 'utf8')).toMatch(/question "q2" timed out after 1500 ms; no question sent with or after it was answered either: restarting the worker/);
  }, 20_000);

  it('stops waiting when the run is interrupted, long before timeoutMs', async () => {
    const { w } = worker('q1');
    await w.start();
    const stop = new AbortController();
    try {
      const pending = settle(w.request('q1', { questionId: 'q1' }, 600_000, stop.signal));
      setTimeout(() => stop.abort(new Error('interrupted')), 200);
      expect(await pending).toEqual({ error: 'interrupted' }); // (the test's own timeout fails it if it waits)
      expect(await settle(w.request('q2', { questionId: 'q2' }, 600_000, stop.signal))).toEqual({ error: 'interrupted' });
    } finally {
      await w.close(200);
    }
  }, 15_000);
});

describe('a worker that logs to stdout', () => {
  it('gets an error that says stdout is for replies and logs go to stderr', async () => {
    const w = scriptWorker('chatty', 'import sys\nfor line in sys.stdin:\n    print("loading index...", flush=True)\n');
    await w.start();
    try {
      expect(await settle(w.request('q1', { questionId: 'q1' }, 10_000))).toEqual({
        error: 'the worker wrote a stdout line that is not JSON: "loading index..." (stdout carries only protocol replies, one JSON object per line: write logs to stderr)',
      });
    } finally {
      await w.close(200);
    }
  }, 15_000);
});

describe('a worker that crashes', () => {
  it("quotes the stderr of the process that exited, not of the one before it", async () => {
    const w = scriptWorker('crash', 'import os, sys\nfor line in sys.stdin:\n    sys.stderr.write("dying " + str(os.getpid()) + "\\n"); sys.stderr.flush(); os._exit(7)\n');
    await w.start();
    try {
      // Two in flight: both die with the first process, then each is sent again alone and dies
      // with its own process; its message quotes that one only.
      const out = await Promise.all(['q1', 'q2'].map((q) => settle(w.request(q, { questionId: q }, 10_000))));
      for (const o of out) expect((o as { error: string }).error).toMatch(/^the worker exited with code 7 while answering this question; stderr ends: dying \d+$/);
    } finally {
      await w.close(200);
    }
  }, 15_000);
});

describe('a worker that recycles itself', () => {
  // A worker that exits cleanly after every two answers (as one that restarts itself to bound its
  // memory does) blamed the question it was sent as it left: 2 of 10 questions were error records.
  // None of them made it exit, so none gets an error.
  it('costs no question an error record: one sent alone to a process that had answered others goes again to a fresh one', async () => {
    const w = scriptWorker('quit', 'import json, sys\nn = 0\nfor line in sys.stdin:\n    q = json.loads(line)["questionId"]\n    print(json.dumps({"questionId": q, "answer": "ok"}), flush=True)\n    n += 1\n    if n == 2: sys.exit(0)\n');
    await w.start();
    try {
      const qs = Array.from({ length: 10 }, (_, i) => `q${i + 1}`);
      // three at a time, as a run keeps several in flight
      const out: unknown[] = [];
      for (let i = 0; i < qs.length; i += 3) out.push(...(await Promise.all(qs.slice(i, i + 3).map((q) => settle(w.request(q, { questionId: q }, 10_000))))));
      expect(out).toEqual(qs.map((q) => ({ ok: { questionId: q, answer: 'ok' } })));
    } finally {
      await w.close(200);
    }
  }, 30_000);
});

describe('a worker that says when it is ready (ready: true)', () => {
  // A worker that loads for a while before reading stdin had that load in the latency of the
  // first questions (p50 3.8 s for a worker answering in milliseconds; compare called it worse).
  const SLOW = 'import json, sys, time\ntime.sleep(float(sys.argv[1]))\nprint(json.dumps({"ready": True}), flush=True)\nfor line in sys.stdin:\n    q = json.loads(line)["questionId"]\n    print(json.dumps({"questionId": q, "answer": "ok"}), flush=True)\n    if q.startswith("last"): sys.exit(0)\n';
  const make = (delay: number, opts: { ready?: boolean; readyTimeoutMs?: number } = { ready: true }) => scriptWorker('slow', SLOW, { ...opts, args: [String(delay)] });

  it('is sent nothing before it says so; a restarted one makes the question wait, and says how long', async () => {
    const w = make(0.8);
    const t0 = performance.now();
    await w.start();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(800);
    try {
      const t1 = performance.now();
      expect(await w.request('last-1', { questionId: 'last-1' }, 10_000)).toEqual({ questionId: 'last-1', answer: 'ok' });
      expect(performance.now() - t1).toBeLessThan(700); // its load is not in the answer's time
      // it exited after that answer: the next question waits for a new process to be ready, and hears of it
      const waits: number[] = [];
      expect(await w.request('q2', { questionId: 'q2' }, 10_000, undefined, (ms) => waits.push(ms))).toEqual({ questionId: 'q2', answer: 'ok' });
      expect(waits).toHaveLength(1);
      expect(waits[0]).toBeGreaterThanOrEqual(800);
    } finally {
      await w.close(200);
    }
  }, 20_000);

  it('fails to start when it never says so, or exits first', async () => {
    const silent = make(30, { ready: true, readyTimeoutMs: 500 });
    await expect(silent.start()).rejects.toThrow('w: the worker did not print {"ready": true} within 500 ms of starting (ready: true in its entry)');
    await silent.close(100);
    const dies = scriptWorker('die', 'import sys\nsys.stderr.write("no index here\\n")\nsys.exit(3)\n', { ready: true });
    await expect(dies.start()).rejects.toThrow(/^w: the worker exited with code 3 before it printed \{"ready": true\}; stderr ends: no index here$/);
    await dies.close(100);
  }, 20_000);

  it('its ready line is no protocol error for a worker run without ready: true', async () => {
    const w = make(0, {});
    await w.start();
    try {
      expect(await w.request('q1', { questionId: 'q1' }, 10_000)).toEqual({ questionId: 'q1', answer: 'ok' });
    } finally {
      await w.close(200);
    }
  }, 20_000);
});

describe('a worker that writes a broken reply with several questions in flight', () => {
  it("times that question out saying a stray line came meanwhile", async () => {
    const w = scriptWorker('broken', 'import json, sys\nfor line in sys.stdin:\n    q = json.loads(line)["questionId"]\n    print("{not json" if q == "q1" else json.dumps({"questionId": q, "answer": "ok"}), flush=True)\n');
    await w.start();
    try {
      const out = await Promise.all(['q1', 'q2', 'q3'].map((q) => settle(w.request(q, { questionId: q }, 1500))));
      expect(out[0]).toEqual({ error: 'no reply within 1500 ms (timeoutMs); meanwhile the worker wrote 1 stdout line that was not a reply (its stderr log quotes them)' });
      expect(out.slice(1)).toEqual([{ ok: { questionId: 'q2', answer: 'ok' } }, { ok: { questionId: 'q3', answer: 'ok' } }]);
    } finally {
      await w.close(200);
    }
  }, 15_000);
});

describe('a worker restarted because it was stuck', () => {
  it('is not counted as crashing: two crashes and a hang in a row do not give the worker up', async () => {
    const w = scriptWorker('mixed', 'import json, os, sys, time\nfor line in sys.stdin:\n    q = json.loads(line)["questionId"]\n    if q == "crash": os._exit(7)\n    if q == "hang": time.sleep(600)\n    print(json.dumps({"questionId": q, "answer": "ok"}), flush=True)\n');
    await w.start();
    try {
      expect(await settle(w.request('crash', { questionId: 'crash' }, 10_000))).toMatchObject({ error: expect.stringMatching(/exited with code 7/) }); // two exits: sent, then again alone
      expect(await settle(w.request('hang', { questionId: 'hang' }, 1000))).toMatchObject({ error: expect.stringMatching(/so it was restarted/) });
      await new Promise((resolve) => setTimeout(resolve, 500)); // the killed process's exit arrives (it must not count)
      expect(await settle(w.request('fine', { questionId: 'fine' }, 10_000))).toEqual({ ok: { questionId: 'fine', answer: 'ok' } });
    } finally {
      await w.close(200);
    }
  }, 20_000);
});

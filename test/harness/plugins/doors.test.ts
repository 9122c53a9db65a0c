// The three plugin doors end to end on the bundled sample, offline, through the library's
// runBenchmark: what a user's worker, service or module gets, and what becomes of what it does
// wrong (a crash, a hang, a broken reply, a spent budget).
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBenchmark } from '../../../index.ts';
import type { RunRecord } from '../../../harness/types.ts';

const EXAMPLES = new URL('../../../examples/plugins/', import.meta.url).pathname;

/** A temp folder holding the example plugins plus `files`; returns its path. */
function workspace(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'treebench-plugins-'));
  cpSync(EXAMPLES, dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function config(dir: string, strategies: unknown[], extra: Record<string, unknown> = {}) {
  return {
    name: 'plugins-test',
    dataset: { format: 'sample' },
    model: { provider: 'offline', priceAs: 'gpt-4o-mini' },
    strategies,
    budget: { calls: 24 },
    run: { outDir: join(dir, 'runs'), seed: 42, concurrency: 4 },
    index: { cache: { enabled: false } },
    reports: ['md', 'json'],
    ...extra,
  };
}

const byStrategy = (records: RunRecord[], id: string) => records.filter((r) => r.strategy === id);

/** Every file under a folder, recursively, as text. */
function filesUnder(dir: string): Array<[string, string]> {
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter((f) => statSync(f).isFile())
    .map((f) => [f, readFileSync(f, 'latin1')]);
}

describe('a Python worker (JSON lines)', () => {
  it('answers like a built-in: calls, tokens, dollars and evidence from its own gateway calls', async () => {
    const dir = workspace();
    const out = await runBenchmark(config(dir, ['vector', { id: 'py', command: ['python3', './python_worker.py'], params: { topK: 2 } }], { cache: { enabled: true, dir: join(dir, 'cache') } }), { baseDir: dir, limit: 8 });
    const py = byStrategy(out.records, 'py');
    expect(py).toHaveLength(8);
    expect(py.every((r) => r.error === null)).toBe(true);
    expect(py.every((r) => r.calls === 1 && r.inputTokens > 0 && r.outputTokens > 0 && (r.costUsd ?? 0) > 0)).toBe(true);
    expect(py.every((r) => r.evidence.length === 2 && r.evidence[0]!.rank === 1)).toBe(true);
    expect(py.every((r) => r.callLog[0]!.task === 'keyword.answer')).toBe(true);
    expect(py[0]!.trace[0]).toMatchObject({ step: 1, action: 'score', source: 'value' });
    const s = out.summary.strategies.find((x) => x.strategy === 'py')!;
    expect(s.callsPerQuestion).toBe(1);
    expect(s.errors).toBe(0);
    // The gateway's per-question keys reach no file of the run folder or the caches.
    const files = [...filesUnder(out.runDir), ...filesUnder(join(dir, 'cache'))];
    expect(files.length).toBeGreaterThan(5);
    expect(files.filter(([, text]) => /tbq_[0-9a-f]{48}/.test(text)).map(([f]) => f)).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(out.runDir, 'manifest.json'), 'utf8'));
    expect(manifest.strategies[1]).toMatchObject({ id: 'py', strategy: 'command:python3 ./python_worker.py' });
  }, 60_000);

  it('turns a crash, a hang and a broken reply into three error records naming the cause; the rest is answered', async () => {
    // sample-002 crashes the worker, sample-003 hangs, sample-004 answers with a number; the
    // others are answered by the example retriever. The key of every request goes to stderr: the
    // log must not keep it.
    const dir = workspace({
      'faulty.py': `
import json, os, sys, time, threading
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from keyword_retriever import answer
lock = threading.Lock()
def handle(req):
    q = req["questionId"]
    sys.stderr.write("key " + req["model"]["apiKey"] + "\\n"); sys.stderr.flush()
    if q == "sample-002": os._exit(7)
    if q == "sample-003": time.sleep(120); return
    reply = {"answer": 42} if q == "sample-004" else answer(req)
    reply["questionId"] = q
    with lock:
        sys.stdout.write(json.dumps(reply) + "\\n"); sys.stdout.flush()
for line in sys.stdin:
    threading.Thread(target=handle, args=(json.loads(line),), daemon=True).start()
`,
    });
    const out = await runBenchmark(config(dir, [{ id: 'faulty', command: ['python3', './faulty.py'], timeoutMs: 10_000 }]), { baseDir: dir, limit: 8 });
    const recs = byStrategy(out.records, 'faulty');
    expect(recs).toHaveLength(8);
    const errors = Object.fromEntries(recs.filter((r) => r.error).map((r) => [r.questionId, r.error]));
    expect(Object.keys(errors).sort()).toEqual(['sample-002', 'sample-003', 'sample-004']);
    expect(errors['sample-002']).toMatch(/worker exited with code 7 while answering this question/);
    expect(errors['sample-003']).toMatch(/no reply within 10000 ms \(timeoutMs\)/);
    expect(errors['sample-004']).toMatch(/answer: expected a string, got number/);
    expect(recs.filter((r) => !r.error).every((r) => r.answer.length > 0 && r.evidence.length > 0)).toBe(true);
    // The worker was restarted after the crash: questions after it were answered.
    const log = readFileSync(join(out.runDir, 'logs', 'faulty.stderr.log'), 'utf8');
    expect(log).toMatch(/worker exited with code 7/);
    expect(log).toMatch(/key \[REDACTED\]/);
    expect(log).not.toMatch(/tbq_[0-9a-f]{48}/);
    // 3 of 8 records are errors: above run.maxErrorRate (0.2), so `treebench run` exits 3.
    expect(out.summary.strategies[0]!.errors).toBe(3);
  }, 120_000);

  it('lets one call of three through under budget.calls: 1, and the records name the budget', async () => {
    const dir = workspace({
      'greedy.py': `
import json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tb_plugin import Gateway, GatewayError, serve_json_lines
def answer(req):
    gw, got, refused = Gateway(req["model"]), [], []
    for i in range(3):
        try:
            got.append(gw.chat([{"role": "user", "content": "Question: " + req["question"]}], task="greedy.%d" % i))
        except GatewayError as e:
            refused.append((e.status, e.code))
    return {"answer": got[0] if got else "", "trace": [{"action": "answer", "source": "rule", "reason": json.dumps(refused)}]}
serve_json_lines(answer, sys.stdin, sys.stdout)
`,
    });
    const out = await runBenchmark(config(dir, [{ id: 'greedy', command: ['python3', './greedy.py'], budget: { calls: 1 } }]), { baseDir: dir, limit: 3 });
    for (const r of out.records) {
      expect(r.error).toBeNull();
      expect(r.calls).toBe(1);
      expect(r.budgetExhausted).toBe('calls');
      expect(JSON.parse(r.trace[0]!.reason!)).toEqual([[429, 'budget_calls'], [429, 'budget_calls']]);
    }
  }, 60_000);

  it('makes the same node choices, calls and tokens as the built-in node-list when it ports it with the same prompts', async () => {
    const dir = workspace();
    const out = await runBenchmark(config(dir, ['node-list', { id: 'py-node-list', command: ['python3', './node_list_worker.py'] }], { budget: { calls: 24, timeMs: 60000 }, run: { outDir: join(dir, 'runs'), seed: 42, concurrency: 8 } }), { baseDir: dir });
    const builtIn = new Map(byStrategy(out.records, 'node-list').map((r) => [r.questionId, r]));
    const ported = byStrategy(out.records, 'py-node-list');
    expect(ported).toHaveLength(75);
    const same = (r: RunRecord) => {
      const b = builtIn.get(r.questionId)!;
      const ids = (x: RunRecord) => x.evidence.map((e) => `${e.docId}/${e.nodeId}`).join(' ');
      return ids(r) === ids(b) && r.calls === b.calls && r.inputTokens === b.inputTokens && r.outputTokens === b.outputTokens && r.embedCalls === b.embedCalls && r.answer === b.answer;
    };
    expect(ported.filter((r) => !same(r)).map((r) => r.questionId)).toEqual([]);
  }, 120_000);
});

describe('a module over a real vector database', () => {
  it('keeps its vectors in LanceDB in the run folder and is benchmarked like a built-in', async () => {
    const dir = workspace();
    const out = await runBenchmark(config(dir, [{ id: 'lancedb', module: './lancedb-module.ts', params: { topK: 3 } }]), { baseDir: dir, limit: 5 });
    expect(out.records.every((r) => r.error === null && r.calls === 1 && r.evidence.length === 3)).toBe(true);
    expect(readdirSync(join(out.runDir, 'lancedb'))).toContain('nodes.lance');
    expect(out.records.some((r) => r.retrieval?.node && r.retrieval.node.recall > 0)).toBe(true);
  }, 60_000);
});

describe('an HTTP service', () => {
  it('gets one POST per question and is benchmarked like a built-in; a service that is down stops the run resumably', async () => {
    const dir = workspace();
    const server = spawn('python3', [join(dir, 'http_service.py'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const url = await new Promise<string>((resolve) => server.stdout.once('data', (b: Buffer) => resolve(/http:\/\/\S+/.exec(b.toString())![0])));
      const out = await runBenchmark(config(dir, [{ id: 'svc', url, params: { topK: 2 } }]), { baseDir: dir, limit: 5 });
      expect(out.records.every((r) => r.error === null && r.calls === 1 && r.evidence.length === 2)).toBe(true);
      expect(out.stopped).toBeNull();
    } finally {
      server.kill();
    }
    const down = await runBenchmark(config(dir, [{ id: 'svc', url: 'http://127.0.0.1:9/retrieve' }], { run: { outDir: join(dir, 'runs'), maxConsecutiveFailures: 2, concurrency: 1 } }), { baseDir: dir, limit: 5 });
    expect(down.stopped?.reason).toMatch(/consecutive connection failures.*unreachable/);
    expect(down.records).toHaveLength(0);
  }, 60_000);
});

// Custom scorers (`scoring.scorers`, made with defineScorer): per-record values in the records,
// means with intervals in the summary, and the same paths through compare, gate, history and the
// CSV as the built-in metrics; a scorer that throws leaves data, not a crash; bad scorer files are
// exit 2 naming the field and the file.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { compareRuns, runBenchmark } from '../../../index.ts';
import { cli } from '../../resilience/helpers.ts';
import type { RunRecord } from '../../../harness/types.ts';

const INDEX = new URL('../../../index.ts', import.meta.url).pathname;
const EXAMPLES = new URL('../../../examples/plugins/', import.meta.url).pathname;

function folder(files: Record<string, string> = {}): string {
  const d = mkdtempSync(join(tmpdir(), 'treebench-scorers-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(d, name), text);
  return d;
}

const config = (d: string, scorers: string[], extra: Record<string, unknown> = {}) => ({
  name: 'scorers-test',
  dataset: { format: 'sample' },
  strategies: ['vector', 'node-list'],
  run: { outDir: join(d, 'runs') },
  index: { cache: { enabled: false } },
  scoring: { scorers },
  reports: ['csv', 'md', 'html'],
  ...extra,
});

/** Words in the answer, lower is better; refuses (throws) on questions whose id ends in 7. */
const WORDS = `
import { defineScorer } from '${INDEX}';
export default defineScorer({
  name: 'words',
  higherIsBetter: false,
  score({ answer, questionId }) {
    if (questionId.endsWith('7')) throw new Error('no opinion on ' + questionId);
    return answer.split(/\\s+/).filter(Boolean).length;
  },
});
`;

const words = (r: RunRecord) => r.answer.split(/\s+/).filter(Boolean).length;

describe('custom scorers', () => {
  it('put a value in each record, a mean with its interval in the summary, and a thrown error into customErrors', async () => {
    const d = folder({ 'words.ts': WORDS });
    const out = await runBenchmark(config(d, ['./words.ts']), { baseDir: d, limit: 20, runId: 'a' });
    const recs = out.records;
    expect(recs).toHaveLength(40);
    for (const r of recs) {
      expect(r.error).toBeNull();
      if (r.questionId.endsWith('7')) {
        expect(r.custom).toEqual({ words: null });
        expect(r.customErrors?.words).toMatch(/no opinion on/);
      } else {
        expect(r.custom).toEqual({ words: words(r) });
        expect(r.customErrors).toBeUndefined();
      }
    }
    for (const s of out.summary.strategies) {
      const mine = recs.filter((r) => r.strategy === s.strategy && r.custom?.words !== null);
      const mean = mine.reduce((n, r) => n + r.custom!.words!, 0) / mine.length;
      expect(s.custom?.words).toEqual({ value: expect.closeTo(mean, 12), n: mine.length, errors: 20 - mine.length });
      const ci = s.intervals?.['custom.words'];
      expect(ci!.lo).toBeLessThanOrEqual(mean);
      expect(ci!.hi).toBeGreaterThanOrEqual(mean);
    }
    expect(out.manifest.scorers).toEqual([{ name: 'words', file: 'words.ts', higherIsBetter: false }]);
    const csv = readFileSync(join(out.runDir, 'report.csv'), 'utf8').split('\n');
    expect(csv[0]).toMatch(/,errors,custom\.words,custom\.words\.n,.*,custom\.words\.ciLo,custom\.words\.ciHi\r?$/);
    expect(readFileSync(join(out.runDir, 'report.md'), 'utf8')).toMatch(/## Custom metrics[\s\S]*custom\.words \(lower is better\): vector \d/);
    expect(readFileSync(join(out.runDir, 'report.html'), 'utf8')).toMatch(/<h2>Custom metrics<\/h2>[\s\S]*custom\.words \(lower is better\): vector \d/);
  }, 60_000);

  it('flow into compare (its direction), gate rules and history like a built-in metric', async () => {
    const d = folder({ 'words.ts': WORDS });
    const out = await runBenchmark(config(d, ['./words.ts']), { baseDir: d, limit: 20, runId: 'a' });
    const cmp = compareRuns(out.runDir, { within: true, baselineStrategy: 'vector', metrics: ['custom.words'] });
    const m = cmp.result.comparisons[0]!.metrics[0]!;
    expect(m.metric).toBe('custom.words');
    expect(m.higherIsBetter).toBe(false);
    // Wins for the candidate are the questions where node-list used fewer words than vector.
    const byQ = (s: string) => new Map(out.records.filter((r) => r.strategy === s && r.custom?.words !== null).map((r) => [r.questionId, r.custom!.words!]));
    const [a, b] = [byQ('vector'), byQ('node-list')];
    const paired = [...a.keys()].filter((q) => b.has(q));
    expect(m.n).toBe(paired.length);
    expect(m.wins).toBe(paired.filter((q) => b.get(q)! < a.get(q)!).length);
    expect(m.losses).toBe(paired.filter((q) => b.get(q)! > a.get(q)!).length);

    // Gate: the same run against itself passes a custom rule; a rule on a scorer nobody ran is skipped, named.
    const rules = join(d, 'gates.yaml');
    writeFileSync(rules, stringify({ rules: { 'custom.words': { maxIncrease: 2 }, 'custom.missing': { maxDrop: 0.1 } } }));
    const gate = await cli('gate', '--baseline', out.runDir, '--candidate', out.runDir, '--rules', rules);
    expect(gate.code, gate.err).toBe(0);
    expect(gate.out).toMatch(/custom\.words/);
    expect(gate.out).toMatch(/pass\s*│\s*vector\s*│\s*custom\.words maxIncrease 2/);
    expect(gate.out).toMatch(/skip\s*│\s*vector\s*│\s*custom\.missing maxDrop 0\.1/);
    const badRule = join(d, 'bad.yaml');
    writeFileSync(badRule, stringify({ rules: { 'custom.words': { maxDrop: 1, maxIncrease: 1 } } }));
    expect((await cli('gate', '--baseline', out.runDir, '--candidate', out.runDir, '--rules', badRule)).code).toBe(2);

    const history = await cli('history', out.runDir, '--metric', 'custom.words', '--format', 'json');
    expect(history.code, history.err).toBe(0);
    const h = JSON.parse(history.out) as { series: Array<{ strategy: string; metric: string; points: Array<{ value: number }> }> };
    const vector = h.series.find((s) => s.strategy === 'vector' && s.metric === 'custom.words')!;
    expect(vector.points[0]!.value).toBeCloseTo(out.summary.strategies.find((s) => s.strategy === 'vector')!.custom!.words!.value!, 12);
  }, 90_000);

  it('the bundled examples run on the sample: a TypeScript and a JavaScript scorer', async () => {
    const d = folder();
    for (const f of ['numbers-in-evidence.ts', 'answer-words.mjs', 'scorers.yaml']) copyFileSync(join(EXAMPLES, f), join(d, f));
    const r = await cli('run', join(d, 'scorers.yaml'), '--limit', '10', '--out', join(d, 'runs'), '--run-id', 'ex', '--quiet');
    expect(r.code, r.err).toBe(0);
    const recs = readFileSync(join(d, 'runs', 'ex', 'records.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RunRecord);
    for (const rec of recs) {
      expect(rec.custom?.answerWords).toBe(words(rec));
      // null exactly when the answer states no number
      expect(rec.custom?.numbersInEvidence === null).toBe(!/\d/.test(rec.answer));
    }
  }, 60_000);

  it('a changed scorer is a changed config: resume refuses it', async () => {
    const d = folder({ 'words.ts': WORDS });
    const path = join(d, 'config.yaml');
    writeFileSync(path, stringify(config(d, ['./words.ts'])));
    expect((await cli('run', path, '--limit', '2', '--run-id', 'r', '--quiet')).code).toBe(0);
    writeFileSync(join(d, 'words.ts'), WORDS.replace("'words'", "'words' /* changed */"));
    const resumed = await cli('run', path, '--resume', join(d, 'runs', 'r'), '--quiet');
    expect(resumed.code).toBe(2);
    expect(resumed.err).toMatch(/different config/);
  }, 60_000);

  it('refuses what is not a scorer, naming scoring.scorers[i] and the file', async () => {
    const d = folder({
      'not-scorer.ts': 'export default { name: "x", score: () => 1 };',
      'strategy.ts': `import { defineStrategy } from '${INDEX}'; export default defineStrategy({ name: 's', run: () => ({ answer: '', evidence: [] }) });`,
      'twin.ts': WORDS,
      'words.ts': WORDS,
    });
    const cases: Array<[string[], RegExp]> = [
      [['./nope.ts'], /scoring\.scorers\[0\]: \.\/nope\.ts: no such file/],
      [['./gates.yaml'], /scoring\.scorers\[0\]: \.\/gates\.yaml: a scorer is a \.ts/],
      [['./not-scorer.ts'], /scoring\.scorers\[0\]: .*not-scorer\.ts: its default export is an object not made with defineScorer/],
      [['./strategy.ts'], /scoring\.scorers\[0\]: .*strategy\.ts is a strategy \(made with defineStrategy\), not a scorer: list it under strategies/],
      [['./words.ts', './twin.ts'], /scoring\.scorers\[1\]: \.\/twin\.ts: a scorer named "words" is already loaded from scoring\.scorers\[0\]/],
    ];
    for (const [scorers, why] of cases) {
      const path = join(d, 'config.yaml');
      writeFileSync(path, stringify(config(d, scorers)));
      const r = await cli('run', path, '--limit', '1', '--quiet');
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(why);
      expect(r.err).not.toMatch(/\n\s+at \S+ \(/);
    }
  }, 60_000);
});

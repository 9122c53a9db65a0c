// "config differs" names the fields: checked on configs parsed by the real validator, with the
// cases a reader cares about (a beam width, a strategy added, a reorder that is not a change).
import { describe, expect, it } from 'vitest';
import { configDiff, configDiffNote } from '../../../../harness/analysis/compare/configDiff.ts';
import { comparability } from '../../../../harness/analysis/compare/runs.ts';
import { validateConfig } from '../../../../harness/config/runConfig.ts';
import { manifest } from './runFixtures.ts';

const parsed = (raw: Record<string, unknown>) => validateConfig({ name: 'x', dataset: { format: 'sample' }, ...raw }).config;

describe('configDiff', () => {
  it('names a changed strategy parameter by strategy id, not list position', () => {
    const a = parsed({ strategies: ['vector', { id: 'beam', strategy: 'hybrid-beam', params: { beamWidth: 3 } }] });
    const b = parsed({ strategies: ['vector', { id: 'beam', strategy: 'hybrid-beam', params: { beamWidth: 5 } }] });
    const changes = configDiff(a, b);
    expect(changes).toHaveLength(1);
    expect(changes[0]!.path).toMatch(/^strategies\[beam\]\..*beamWidth$/);
    expect(configDiffNote(a, b)).toMatch(/config differs: strategies\[beam\]\..*beamWidth: 3 → 5$/);
  });

  it('treats reordered strategies as the same config, and an added one as one change', () => {
    const a = parsed({ strategies: ['vector', 'node-list'] });
    const b = parsed({ strategies: ['node-list', 'vector'] });
    expect(configDiff(a, b)).toEqual([]);
    const c = parsed({ strategies: ['vector', 'node-list', 'mcts'] });
    expect(configDiff(a, c).map((x) => `${x.path} ${x.kind}`)).toEqual(['strategies[mcts] added']);
    expect(configDiffNote(c, a)).toBe('config differs: strategies[mcts]: removed');
  });

  it('names nested scalar changes with both values and counts past the first five', () => {
    const a = { budget: { calls: 24 }, run: { seed: 42 }, name: 'n' };
    const b = { budget: { calls: 12 }, run: { seed: 43 }, name: 'n', extra: true };
    expect(configDiffNote(a, b)).toBe('config differs: budget.calls: 24 → 12; run.seed: 42 → 43; extra: (absent) → true');
    const many = (v: number) => Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, v]));
    expect(configDiffNote(many(1), many(2))).toMatch(/k4: 1 → 2; and 3 more fields$/);
  });

  it('says so when the parsed configs agree (the hash covers the files a config names) or one is missing', () => {
    expect(configDiffNote({ a: 1 }, { a: 1 })).toMatch(/only in the files it names/);
    expect(configDiffNote(null, { a: 1 })).toMatch(/does not record its config/);
  });

  it('reaches compare and gate through comparability()', () => {
    const a = manifest({ configHash: 'h1', config: { name: 'f', budget: { calls: 24 } } });
    const b = manifest({ configHash: 'h2', config: { name: 'f', budget: { calls: 6 } } });
    expect(comparability(a, b).notes).toContain('config differs: budget.calls: 24 → 6');
    expect(comparability(a, manifest({ configHash: 'h1', config: a.config })).notes.join(' ')).not.toMatch(/config differs/);
  });

  it('a scoring change: its values once (the config note), and what it means once', () => {
    const a = manifest({ configHash: 'h1', config: parsed({ strategies: ['vector'], scoring: { numericRelTol: 0.01 } }) });
    const b = manifest({ configHash: 'h2', config: parsed({ strategies: ['vector'], scoring: { numericRelTol: 0.05 } }) });
    const notes = comparability(a, b).notes;
    expect(notes).toContain('config differs: scoring.numericRelTol: 0.01 → 0.05');
    expect(notes).toContain('scoring settings differ (scoring.numericRelTol): answer metrics may not be comparable');
    // No dump of the whole scoring section beside them.
    expect(notes.join('\n')).not.toMatch(/\{"/);
    const same = comparability(a, manifest({ configHash: 'h3', config: parsed({ strategies: ['vector'], scoring: { numericRelTol: 0.01 }, budget: { calls: 3 } }) })).notes;
    expect(same.join(' ')).not.toMatch(/scoring settings differ/);
  });

  it('a corpus read by another PDF extractor: the refusal says so', () => {
    const pdf = (extractor: 'pdfjs' | 'poppler') => ({ pdf: { documents: 12, pages: 990, extracted: 12, fromCache: 0, ms: 1, extractor } });
    const a = manifest({ ingestion: pdf('pdfjs') });
    const b = manifest({ corpus: { ...manifest().corpus, hash: 'corpus-hash-2' }, ingestion: pdf('poppler') });
    expect(comparability(a, b).refusals.join(' ')).toMatch(/different corpora: .*\(PDFs read by pdfjs and by poppler: corpus\.extractor\)/);
    // Another corpus read by the same extractor: no word of extractors.
    const c = manifest({ corpus: { ...manifest().corpus, hash: 'corpus-hash-3' }, ingestion: pdf('pdfjs') });
    expect(comparability(a, c).refusals.join(' ')).not.toMatch(/extractor/);
  });
});

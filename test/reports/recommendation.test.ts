// The recommendation's text shows variant ids from configs as data: on the console no control
// character or escape sequence gets through, and no id breaks a table row.
import { describe, expect, it } from 'vitest';
import type { Recommendation, VariantPoint } from '../../harness/analysis/tune/recommend.ts';
import { renderRecommendation } from '../../reports/recommendation.ts';

const HOSTILE = 'beam\u001b]0;owned\u0007\u001b[2J\nwide\u009b31m';

function point(id: string, objective: number, cost: number): VariantPoint {
  return { id, n: 20, objective, costPerQuestion: cost, callsPerQuestion: 3, tokensPerQuestion: 900, p95LatencyMs: 1200 };
}

const rec: Recommendation = {
  objective: 'accuracy',
  metric: 'answer.correct' as Recommendation['metric'],
  margin: 0.02,
  alpha: 0.05,
  costBasis: 'dollars',
  points: [point('node-list', 0.8, 0.02), point(HOSTILE, 0.78, 0.01)],
  partial: [],
  best: 'node-list',
  recommended: HOSTILE,
  comparisons: [{ id: HOSTILE, n: 20, delta: -0.02, test: 'mcnemar', p: 0.6, pAdjusted: 0.6, significantlyWorse: false }],
  frontier: { dollars: ['node-list', HOSTILE], latency: ['node-list'], calls: ['node-list'] },
};

describe('renderRecommendation on the console', () => {
  it('neutralises escapes in a variant id and keeps each table row on one line', () => {
    const text = renderRecommendation(rec, { priced: true, format: 'table' });
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    const shown = 'beam\uFFFD]0;owned\uFFFD\uFFFD[2J wide\uFFFD31m';
    const row = text.split('\n').find((l) => l.startsWith('beam'));
    expect(row).toContain(shown);
    expect(row).toContain('<- recommended');
    expect(text).toContain(`Recommended: ${shown} — the cheapest`);
  });

  it('leaves a plain id as it is', () => {
    const text = renderRecommendation({ ...rec, points: [point('node-list', 0.8, 0.02), point('beam-w3', 0.78, 0.01)], recommended: 'beam-w3', comparisons: [{ ...rec.comparisons[0], id: 'beam-w3' }] }, { priced: true, format: 'table' });
    expect(text).toContain('Recommended: beam-w3 — the cheapest');
  });
});

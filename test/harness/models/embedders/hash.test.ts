import { describe, it, expect } from 'vitest';
import { HashEmbedder, fnv1a, hashFeatures } from '../../../../harness/models/embedders/hash.ts';
import { cosine, l2normalize, norm } from '../../../../harness/models/embedders/vector.ts';

const texts = [
  'The battery warranty covers defects for eight years or 100,000 miles.',
  'Battery warranty: defects are covered for eight years.',
  'Quarterly revenue grew 12% driven by services.',
  'To pair your headphones, hold the power button for five seconds.',
];

describe('fnv1a', () => {
  it('matches the published FNV-1a 32-bit test vectors', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });
});

describe('hashFeatures', () => {
  it('has stemmed unigrams and adjacent bigrams of content terms', () => {
    const f = hashFeatures('The refunds policy');
    expect([...f.keys()].sort()).toEqual(['b:refund policy', 'w:policy', 'w:refund']);
  });
});

describe('HashEmbedder', () => {
  it('is deterministic across instances', async () => {
    const a = await new HashEmbedder().embed(texts);
    const b = await new HashEmbedder().embed(texts);
    expect(a.vectors.map((v) => [...v])).toEqual(b.vectors.map((v) => [...v]));
  });

  it('returns unit vectors of the configured dimension', async () => {
    const e = new HashEmbedder({ dim: 256 });
    expect(e.id).toBe('hash');
    expect(e.dim).toBe(256);
    const { vectors } = await e.embed(texts);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(256);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
  });

  it('puts similar texts closer than unrelated ones', async () => {
    const e = new HashEmbedder();
    e.fit(texts);
    const [w1, w2, rev, pair] = (await e.embed(texts)).vectors;
    expect(cosine(w1, w2)).toBeGreaterThan(0.3);
    expect(cosine(w1, w2)).toBeGreaterThan(cosine(w1, rev));
    expect(cosine(w1, w2)).toBeGreaterThan(cosine(w1, pair));
    const [query] = (await e.embed(['how long is the battery warranty'])).vectors;
    expect(cosine(query, w2)).toBeGreaterThan(cosine(query, rev));
  });

  it('changes weights after fit (rare terms weigh more)', async () => {
    const e = new HashEmbedder();
    const before = e.embedOne('battery revenue');
    expect(e.idf('w:battery')).toBe(1);
    e.fit(['battery life', 'battery size', 'battery revenue', 'battery charge']);
    const after = e.embedOne('battery revenue');
    expect([...after]).not.toEqual([...before]);
    expect(e.idf('w:revenu')).toBeGreaterThan(e.idf('w:battery'));
    // Smoothed idf: ln((N+1)/(df+1)) + 1; features are stemmed (revenue → revenu)
    expect(e.idf('w:battery')).toBeCloseTo(Math.log(5 / 5) + 1, 12);
    expect(e.idf('w:revenu')).toBeCloseTo(Math.log(5 / 2) + 1, 12);
    expect(e.idf('w:unseen')).toBeCloseTo(Math.log(5 / 1) + 1, 12);
    // After the fit, the rare term dominates: a "revenue" text is closer than a "battery" one.
    const rev = e.embedOne('revenue');
    const bat = e.embedOne('battery');
    expect(cosine(after, rev)).toBeGreaterThan(cosine(after, bat));
  });

  it('gives a zero vector for a text without content terms', () => {
    const v = new HashEmbedder().embedOne('the and of');
    expect(norm(v)).toBe(0);
    expect(cosine(v, new HashEmbedder().embedOne('battery'))).toBe(0);
  });

  it('counts its tables in tableBytes, which grow with the bigrams a fit sees', () => {
    const e = new HashEmbedder();
    const empty = e.tableBytes;
    expect(empty).toBeGreaterThan(0);
    // 5,000 distinct bigrams (word i next to word i + 1): the table keeps load ≤ 1/2, 16 bytes a slot.
    const words = Array.from({ length: 5001 }, (_, i) => `zq${i.toString(36)}x`);
    e.fit(Array.from({ length: 50 }, (_, t) => words.slice(t * 100, t * 100 + 101).join(' ')));
    expect(e.tableBytes - empty).toBeGreaterThanOrEqual(2 * 5000 * 16);
    // The fit's per-text counts are not tables: releasing them changes nothing here.
    const fitted = e.tableBytes;
    e.releaseFit();
    expect(e.tableBytes).toBe(fitted);
  });

  it('bounds each dimension\'s non-zeros over the fitted texts (nonZeroBound), from what the fit kept', () => {
    // A small dimension, so that features share buckets (and some cancel out).
    for (const opts of [{ dim: 64 }, { dim: 64, bigramWeight: 0 }, {}]) {
      const e = new HashEmbedder(opts);
      const corpus = Array.from({ length: 40 }, (_, i) => `${texts[i % texts.length]} part ${i} of the manual, section ${i % 7}`);
      e.fit(corpus);
      const bound = e.nonZeroBound()!;
      expect(bound).toHaveLength(e.dim);
      const nonZeros = new Int32Array(e.dim);
      corpus.forEach((t, i) => {
        const v = e.embedInto(t, new Float32Array(e.dim), i);
        for (let j = 0; j < e.dim; j++) if (v[j] !== 0) nonZeros[j]++;
      });
      for (let j = 0; j < e.dim; j++) expect(bound[j]).toBeGreaterThanOrEqual(nonZeros[j]);
      // Tight but for buckets whose features cancel out: the bound is the count of texts with a feature there.
      const slack = bound.reduce((n, b, j) => n + b - nonZeros[j], 0);
      expect(slack).toBeLessThanOrEqual(bound.reduce((n, b) => n + b, 0) * 0.05);
      e.releaseFit();
      expect(e.nonZeroBound()).toBeNull();
    }
    expect(new HashEmbedder().nonZeroBound()).toBeNull();
  });

  it('rejects a bad dimension', () => {
    expect(() => new HashEmbedder({ dim: 0 })).toThrow(/dim/);
  });
});

describe('cosine', () => {
  it('is the normalised dot product and handles zero vectors', () => {
    const a = new Float32Array([3, 4]);
    const b = new Float32Array([4, 3]);
    expect(cosine(a, b)).toBeCloseTo(24 / 25, 6);
    expect(cosine(l2normalize(new Float32Array([3, 4])), l2normalize(new Float32Array([3, 4])))).toBeCloseTo(1, 6);
    expect(cosine(new Float32Array(2), b)).toBe(0);
    expect(() => cosine(a, new Float32Array(3))).toThrow(/dimensions/);
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../harness/config/runConfig.ts';
import { UsageError } from '../../../harness/errors.ts';
import { configHashOf } from '../../../harness/config/overrides.ts';
import { substituteEnv } from '../../../harness/config/variables.ts';
import { shardFrom, splitList } from '../../../cli/handlers/shared.ts';
import { parameterTable } from '../../../reports/parameters.ts';

const dir = mkdtempSync(join(tmpdir(), 'treebench-grid-'));
function yaml(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
const errorOf = (fn: () => unknown): Error => {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error');
};

const GRID = `name: g
dataset: { format: sample }
strategies:
  - vector
  - strategy: hybrid-beam
    grid: { beamWidth: [1, 3], maxCalls: [8, 16], budget.tokens: [20000] }
budget:
  calls: 24
`;

describe('grid:', () => {
  it('expands to one variant per combination, first key slowest, with stable readable ids', () => {
    const loaded = loadConfig(yaml('grid.yaml', GRID));
    expect(loaded.strategies.map((s) => s.id)).toEqual([
      'vector',
      'hybrid-beam[beamWidth=1,maxCalls=8,budget.tokens=20000]',
      'hybrid-beam[beamWidth=1,maxCalls=16,budget.tokens=20000]',
      'hybrid-beam[beamWidth=3,maxCalls=8,budget.tokens=20000]',
      'hybrid-beam[beamWidth=3,maxCalls=16,budget.tokens=20000]',
    ]);
    const v = loaded.strategies[4];
    expect(v.params).toMatchObject({ beamWidth: 3, maxCalls: 16, maxRounds: 4 });
    expect(v.budget).toEqual({ calls: 24, tokens: 20000 });
    expect(v.grid).toEqual({ beamWidth: 3, maxCalls: 16, 'budget.tokens': 20000 });
    expect(loaded.strategies[0].grid).toBeUndefined();
  });

  it('an invalid combination names itself and points at the grid line', () => {
    const path = yaml('bad-grid.yaml', GRID.replace('beamWidth: [1, 3]', 'beamWidth: [1, 0]'));
    const err = errorOf(() => loadConfig(path));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toContain(`${path}:6 hybrid-beam[beamWidth=0,maxCalls=8,budget.tokens=20000]: strategies[1].params.beamWidth`);
    expect(err.message).toContain('hybrid-beam[beamWidth=0,maxCalls=16,budget.tokens=20000]');
    expect(err.message).not.toContain('beamWidth=1,');
  });

  it('refuses unknown budgets, empty axes and repeated values, naming the key', () => {
    const msg = (g: string) => errorOf(() => loadConfig(yaml('g2.yaml', GRID.replace('grid: { beamWidth: [1, 3], maxCalls: [8, 16], budget.tokens: [20000] }', `grid: ${g}`)))).message;
    expect(msg('{ budget.tokenz: [1] }')).toMatch(/strategies\[1\]\.grid\.budget\.tokenz: unknown budget "tokenz"/);
    expect(msg('{ beamWidth: [] }')).toMatch(/grid\.beamWidth: a grid axis needs a list of at least one value/);
    expect(msg('{ beamWidth: [2, 2] }')).toMatch(/grid\.beamWidth: values repeat/);
    expect(msg('{ budget.calls: [0, 5] }')).toMatch(/hybrid-beam\[budget\.calls=0\]: strategies\[1\]\.budget\.calls: Too small/);
    expect(msg('{ nope: [1, 2] }')).toMatch(/hybrid-beam\[nope=1\]: strategies\[1\]\.params: unknown key "nope"/);
  });
});

describe('--set overrides', () => {
  const path = yaml('set.yaml', GRID);

  it('sets run, budget and strategy fields; the value is read as YAML', () => {
    const loaded = loadConfig(path, { set: ['run.seed=7', 'budget.calls=12', 'strategies.vector.params.topK=3', 'name=renamed'] });
    expect(loaded.config.run.seed).toBe(7);
    expect(loaded.config.budget.calls).toBe(12);
    expect(loaded.config.name).toBe('renamed');
    expect(loaded.strategies[0]).toMatchObject({ id: 'vector', params: { topK: 3 }, budget: { calls: 12 } });
    expect(loaded.overrides).toEqual(['run.seed=7', 'budget.calls=12', 'strategies.vector.params.topK=3', 'name=renamed']);
  });

  it('fixing a gridded parameter removes that axis; a grid can be set too; index addressing works', () => {
    const fixed = loadConfig(path, { set: ['strategies.hybrid-beam.params.beamWidth=5'] });
    expect(fixed.strategies.map((s) => s.id)).toEqual(['vector', 'hybrid-beam[maxCalls=8,budget.tokens=20000]', 'hybrid-beam[maxCalls=16,budget.tokens=20000]']);
    expect(fixed.strategies[1].params.beamWidth).toBe(5);
    const regrid = loadConfig(path, { set: ['strategies.1.grid={ beamWidth: [2, 4] }'] });
    expect(regrid.strategies.map((s) => s.id)).toEqual(['vector', 'hybrid-beam[beamWidth=2]', 'hybrid-beam[beamWidth=4]']);
  });

  it('errors name the flag: schema violations, unknown keys, wrong types, unknown entries, malformed flags', () => {
    const msg = (set: string[]) => errorOf(() => loadConfig(path, { set })).message;
    expect(msg(['budget.calls=-1'])).toContain('--set budget.calls=-1 budget.calls: Too small');
    expect(msg(['budget.calss=3'])).toContain('--set budget.calss=3 budget: unknown key "calss" (did you mean "calls"?)');
    expect(msg(['run.seed=abc'])).toContain('--set run.seed=abc run.seed: Invalid input: expected number, received string');
    expect(msg(['strategies.vector.params.topK=0'])).toContain('--set strategies.vector.params.topK=0 strategies[0].params.topK: Too small');
    expect(msg(['strategies.nope.params.x=1'])).toBe('--set strategies.nope.params.x=1: no strategy entry "nope" (the config has: vector, hybrid-beam; or use strategies.<0-based index>)');
    expect(msg(['budget.calls'])).toBe('--set budget.calls: expected path=value, e.g. --set budget.calls=12');
    expect(msg(['strategies.9.params.x=1'])).toContain('the config has 2 strategy entries');
    expect(errorOf(() => loadConfig(path, { set: ['budget.calls'] }))).toBeInstanceOf(UsageError);
    // The file's own errors still point at the file.
    expect(msg(['strategies.vector.params.topK=0'])).not.toContain(path);
  });

  it('the config hash covers overrides, and not comments or formatting', () => {
    const path = yaml('hash.yaml', GRID);
    const plain = configHashOf(loadConfig(path));
    const a = configHashOf(loadConfig(path, { set: ['run.seed=7'] }));
    expect(a).not.toBe(plain);
    expect(configHashOf(loadConfig(path, { set: ['run.seed=8'] }))).not.toBe(a);
    expect(configHashOf(loadConfig(yaml('hash-commented.yaml', `# a comment\n${GRID}\n# another\n`)))).toBe(plain);
  });
});

describe('${VAR} in configs', () => {
  const text = `name: \${RUN_NAME:-envtest}
dataset: { format: sample }
model:
  provider: offline
  priceAs: \${PRICE_AS}
strategies:
  - strategy: vector
    params:
      topK: \${TOPK:-4}
  - strategy: node-list
    params: { maxNodes: "\${MAXNODES:-2}" }
run:
  outDir: runs/\${RUN_NAME:-envtest}/x
`;
  const path = yaml('env.yaml', text);

  it('substitutes values and defaults; a lone placeholder takes its YAML type', () => {
    const loaded = loadConfig(path, { env: { PRICE_AS: 'gpt-4o-mini', TOPK: '7' } });
    expect(loaded.config.name).toBe('envtest');
    expect(loaded.config.model.priceAs).toBe('gpt-4o-mini');
    expect(loaded.strategies[0].params.topK).toBe(7);
    expect(loaded.strategies[1].params.maxNodes).toBe(2); // quoted inside a flow mapping, still a number
    expect(loaded.config.run.outDir).toBe('runs/envtest/x');
    expect(loaded.env).toEqual({ RUN_NAME: 'envtest', PRICE_AS: 'gpt-4o-mini', TOPK: '7', MAXNODES: '2' });
  });

  it('an unset variable without a default names the file, line, field and variable', () => {
    const err = errorOf(() => loadConfig(path, { env: {} }));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toContain(`${path}:5 model.priceAs: environment variable PRICE_AS is not set (set it, or write \${PRICE_AS:-default})`);
  });

  it('a substituted value is validated like a written one', () => {
    const err = errorOf(() => loadConfig(path, { env: { PRICE_AS: 'x', TOPK: 'many' } }));
    expect(err.message).toContain(`${path}:9 strategies[0].params.topK`);
  });

  it('never records a secret-looking variable\'s value, only a digest', () => {
    // Built at run time so the fake key does not look like a committed secret.
    const fake = `sk-${'very-secret-value-123'}`;
    const { data, used } = substituteEnv({ a: '${MY_API_TOKEN}' }, { MY_API_TOKEN: fake });
    expect(data).toEqual({ a: fake });
    expect(used.MY_API_TOKEN).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(JSON.stringify(used)).not.toContain('very-secret');
  });

  it('$${ is a literal; malformed placeholders are errors; empty counts as unset for :-', () => {
    expect(substituteEnv({ a: 'cost $${HOME}' }, {}).data).toEqual({ a: 'cost ${HOME}' });
    expect(substituteEnv({ a: '${X:-d}' }, { X: '' }).data).toEqual({ a: 'd' });
    expect(substituteEnv({ a: 'pre-${X}-post' }, { X: '5' }).data).toEqual({ a: 'pre-5-post' });
    expect(errorOf(() => substituteEnv({ a: '${1BAD}' }, {})).message).toContain('a: malformed placeholder');
    expect(errorOf(() => substituteEnv({ a: '${OPEN' }, {})).message).toContain('malformed placeholder');
  });
});

describe('shards and lists', () => {
  it('TREEBENCH_SHARD is read when --shard is absent; the flag wins; bad values are named', () => {
    expect(shardFrom(undefined, { TREEBENCH_SHARD: '2/4' })).toEqual({ index: 2, count: 4 });
    expect(shardFrom('1/2', { TREEBENCH_SHARD: '2/4' })).toEqual({ index: 1, count: 2 });
    expect(shardFrom(undefined, {})).toBeUndefined();
    expect(errorOf(() => shardFrom(undefined, { TREEBENCH_SHARD: '5/4' })).message).toBe('TREEBENCH_SHARD must look like i/n with 1 <= i <= n (got "5/4")');
  });

  it('splitList keeps commas inside grid ids', () => {
    expect(splitList(['vector,hybrid-beam[beamWidth=3,maxCalls=16]', 'mcts'])).toEqual(['vector', 'hybrid-beam[beamWidth=3,maxCalls=16]', 'mcts']);
  });
});

describe('parameter columns', () => {
  it('shows grid keys and parameters that differ within one strategy; shared defaults stay out', () => {
    const t = parameterTable([
      { id: 'vector-k1', strategy: 'vector', params: { topK: 1, maxContextTokens: 6000 }, budget: { calls: 24 } },
      { id: 'vector-k3', strategy: 'vector', params: { topK: 3, maxContextTokens: 6000 }, budget: { calls: 24 } },
      { id: 'hb[beamWidth=2]', strategy: 'hybrid-beam', params: { beamWidth: 2, maxContextTokens: 6000, valueTopK: 20 }, budget: { calls: 24, tokens: 100 }, grid: { beamWidth: 2 } },
      { id: 'mcts', strategy: 'mcts', params: { valueTopK: 30, maxContextTokens: 6000 }, budget: { calls: 24 } },
    ]);
    expect(t.columns).toEqual(['params.beamWidth', 'params.topK', 'budget.tokens']);
    expect(t.values['vector-k3']).toEqual({ 'params.topK': 3 });
    expect(t.values['hb[beamWidth=2]']).toEqual({ 'params.beamWidth': 2, 'budget.tokens': 100 });
  });
});

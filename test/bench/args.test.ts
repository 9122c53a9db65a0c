import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BenchUsageError, openingComment, parseBenchArgs, type BenchOptions } from '../../bench/lib/args.ts';

const options: BenchOptions = {
  calls: { type: 'string', default: '2000', number: 'positive-integer', help: 'chat calls per piece' },
  latency: { type: 'string', default: '100', number: 'positive', help: 'latency, ms' },
  concurrency: { type: 'string', default: '16,64', number: 'positive-integer-list', help: 'levels' },
  large: { type: 'boolean', default: false, help: 'the large part too' },
  before: { type: 'string', help: 'another checkout' },
  child: { type: 'string', internal: true, help: 'plumbing' },
  only: { type: 'string', choices: ['hash', 'dense'], help: 'one case' },
};
const parse = (argv: string[]) => {
  const r = parseBenchArgs(argv, options, 'What the bench measures.');
  if ('help' in r) throw new Error('unexpected help');
  return r;
};
const usageError = (argv: string[]) => {
  try {
    parseBenchArgs(argv, options, '');
  } catch (err) {
    expect(err).toBeInstanceOf(BenchUsageError);
    return (err as Error).message;
  }
  throw new Error(`no error for ${argv.join(' ')}`);
};

describe('bench options', () => {
  it('reads defaults, numbers, lists, flags and strings', () => {
    const d = parse([]);
    expect([d.number('calls'), d.number('latency'), d.numbers('concurrency'), d.flag('large'), d.string('before')]).toEqual([2000, 100, [16, 64], false, undefined]);
    const g = parse(['--calls', '500', '--latency=2.5', '--concurrency', '8, 32', '--large', '--before', '/tmp/old']);
    expect([g.number('calls'), g.number('latency'), g.numbers('concurrency'), g.flag('large'), g.string('before')]).toEqual([500, 2.5, [8, 32], true, '/tmp/old']);
  });

  it('names the flag of every bad input', () => {
    expect(usageError(['--cals', '5'])).toMatch(/Unknown option '--cals'/);
    expect(usageError(['--calls'])).toMatch(/--calls/);
    expect(usageError(['--calls', 'abc'])).toBe('--calls must be a positive whole number, got "abc"');
    expect(usageError(['--calls', '0'])).toMatch(/^--calls must be a positive whole number/);
    expect(usageError(['--calls', '2.5'])).toMatch(/^--calls must be a positive whole number/);
    expect(usageError(['--latency=-1'])).toBe('--latency must be a positive number, got "-1"');
    expect(usageError(['--latency', '-1'])).toMatch(/'--latency'/);
    expect(usageError(['--concurrency', '16,'])).toMatch(/^--concurrency must be a comma-separated list of positive whole numbers/);
    expect(usageError(['--concurrency', '16,x'])).toMatch(/^--concurrency must be/);
    expect(usageError(['stray'])).toMatch(/stray/);
    expect(usageError(['--only', 'sparse'])).toBe('--only must be one of "hash", "dense", got "sparse"');
    // Counter-examples: what is fine is not an error.
    expect(parse(['--latency', '0.5']).number('latency')).toBe(0.5);
    expect(parse(['--concurrency', '1']).numbers('concurrency')).toEqual([1]);
    expect(parse(['--only', 'dense']).string('only')).toBe('dense');
  });

  it('--help lists the options a user sets, with defaults, and not the plumbing', () => {
    const r = parseBenchArgs(['--help'], options, 'What the bench measures.');
    expect('help' in r).toBe(true);
    const help = (r as { help: string }).help;
    expect(help.startsWith('What the bench measures.\n\nOptions:\n')).toBe(true);
    expect(help).toMatch(/--calls <value> +chat calls per piece \(default: 2000\)/);
    expect(help).toMatch(/--large +the large part too\n/);
    expect(help).toMatch(/--before <value> +another checkout\n/);
    expect(help).not.toMatch(/--child/);
    expect(help).toMatch(/--only <value> +one case \(one of: hash, dense\)\n/);
    expect(parseBenchArgs(['-h'], options, 'x')).toHaveProperty('help');
  });

  it("a script's description is its opening comment", () => {
    const text = openingComment(new URL('../../bench/http-efficiency.ts', import.meta.url).href);
    expect(text.split('\n')[0]).toBe("HTTP harness efficiency: treebench's runner against a loopback OpenAI-compatible server");
    expect(text).not.toMatch(/^\/\/|\nimport /m);
  });

  it('a bench script prints its help (exit 0) and refuses a bad flag (exit 2) before any work', () => {
    const run = (args: string[]) => spawnSync(process.execPath, ['bin/run-ts.mjs', 'bench/http-efficiency.ts', ...args], { encoding: 'utf8', env: { ...process.env, npm_lifecycle_event: 'bench:http' } });
    const help = execFileSync(process.execPath, ['bin/run-ts.mjs', 'bench/http-efficiency.ts', '--help'], { encoding: 'utf8' });
    expect(help).toMatch(/^HTTP harness efficiency/);
    expect(help).toMatch(/--concurrency <value> +concurrency levels to measure, comma-separated \(default: 16,64\)/);
    const bad = run(['--calls', 'many']);
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toBe('error: --calls must be a positive whole number, got "many"\nOptions: npm run bench:http -- --help\n');
  });
});

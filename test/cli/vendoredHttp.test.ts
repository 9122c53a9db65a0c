// The model client bundled into the command (dist/vendor/http.cjs): the openai SDK there is given
// the web classes of bin/vendor-globals.mjs, so that a run never loads Node's own fetch (~25 ms
// of its start), and it loads from V8's code cache (bin/vendor-load.cjs). Checked: the stand-ins
// behave as the globals they replace; the cache is taken only for the file it was made from; the
// command, calling a server, touches none of Node's lazily loaded fetch classes.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIsCurrent } from '../../bin/source-dirs.mjs';
import { chatCompletion, FakeOpenAIServer } from '../helpers/fake-openai-server.ts';

const ROOT = process.cwd();
/** Node's fetch classes: globals whose first touch loads its fetch implementation. */
const FETCH_CLASSES = ['Headers', 'FormData', 'Request', 'Response'];

/**
 * A module to preload (`node --import`) that reports, on stderr at exit, which of Node's fetch
 * classes the process touched (each is a lazy getter, replaced here by one that notes the touch)
 * and what the bundle's loader did with its code cache.
 */
function touchReporter(dir: string): string {
  const file = join(dir, 'touches.mjs');
  writeFileSync(
    file,
    `const touched = [];
for (const name of ${JSON.stringify(FETCH_CLASSES)}) {
  const d = Object.getOwnPropertyDescriptor(globalThis, name);
  if (!d?.get) throw new Error(name + ' is not a lazy global in this Node');
  Object.defineProperty(globalThis, name, { ...d, get() { if (!touched.includes(name)) touched.push(name); return d.get.call(this); } });
}
// The loader the command's bundle requires (the same module: one path, one instance).
const loader = (await import('node:module')).createRequire(import.meta.url)(${JSON.stringify(join(ROOT, 'dist', 'vendor', 'load.cjs'))});
process.on('exit', () => process.stderr.write('TOUCHED ' + JSON.stringify(touched) + '\\nCACHE ' + loader.cacheUse + '\\n'));
`,
  );
  return pathToFileURL(file).href;
}

const touchedIn = (stderr: string): string[] => JSON.parse(/^TOUCHED (.*)$/m.exec(stderr)?.[1] ?? 'null') as string[];

describe('the web classes the bundled SDK is given (bin/vendor-globals.mjs)', () => {
  it('behave as the globals for what the SDK does with them, and leave Node fetch unloaded until one is really needed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'treebench-vendor-globals-'));
    const probe = join(dir, 'probe.mjs');
    writeFileSync(
      probe,
      `import { vendorHeaders, vendorFormData, vendorReadableStream } from ${JSON.stringify(pathToFileURL(resolve(ROOT, 'bin/vendor-globals.mjs')).href)};
const out = {};
const h = new vendorHeaders([['X-A', ' 1 '], ['x-a', '2'], ['Content-Type', 'application/json']]);
out.headers = [...h];
out.headersIs = h instanceof vendorHeaders;
// What a JSON request's body is tested against: none of them is one, and no global is touched.
const body = { model: 'm', messages: [] };
out.plain = [body instanceof vendorFormData, body instanceof vendorReadableStream, 'text' instanceof vendorFormData, null instanceof vendorFormData];
out.fakeTag = { [Symbol.toStringTag]: 'FormData' } instanceof vendorFormData;
out.before = ${JSON.stringify(FETCH_CLASSES)}.filter((n) => !Object.getOwnPropertyDescriptor(globalThis, n).get);
// The real classes' objects are recognised; \`new\` and statics reach the globals.
out.real = [new FormData() instanceof vendorFormData, new ReadableStream() instanceof vendorReadableStream, new Headers() instanceof vendorHeaders];
out.made = [Object.prototype.toString.call(new vendorFormData()), new vendorFormData() instanceof FormData, typeof vendorReadableStream.from];
process.stdout.write(JSON.stringify(out));
`,
    );
    const out = JSON.parse(execFileSync(process.execPath, [probe], { encoding: 'utf8' })) as Record<string, unknown>;
    expect(out.headers).toEqual([
      ['content-type', 'application/json'],
      ['x-a', '1, 2'],
    ]);
    expect(out.headersIs).toBe(true);
    expect(out.plain).toEqual([false, false, false, false]);
    // An object merely calling itself FormData is checked against the real class (and is not one).
    expect(out.fakeTag).toBe(false);
    // Only that check touched a fetch class: plain bodies never do.
    expect(out.before).toEqual(['FormData']);
    expect(out.real).toEqual([true, true, true]);
    expect(out.made).toEqual(['[object FormData]', true, 'function']);
  });
});

describe("the bundled client's code cache (bin/vendor-load.cjs)", () => {
  it('is made from this http.cjs and taken by V8; a cache made from another http.cjs is not offered', () => {
    expect(existsSync(join(ROOT, 'dist', 'vendor', 'http.cjs.cache')), 'dist/ has no code cache: run `npm run build`').toBe(true);
    const probe = (dir: string) =>
      JSON.parse(
        execFileSync(process.execPath, ['-e', "const l = require(process.argv[1]); const v = l.loadVendor(); process.stdout.write(JSON.stringify({ use: l.cacheUse, openai: typeof v.OpenAI, agent: typeof v.undici.Agent }))", join(dir, 'load.cjs')], { encoding: 'utf8' }),
      ) as { use: string; openai: string; agent: string };
    expect(probe(join(ROOT, 'dist', 'vendor'))).toEqual({ use: 'accepted', openai: 'function', agent: 'function' });
    // The same files, http.cjs changed by one character (so of the same length, which V8's own
    // check alone would not tell apart): the cache is not offered, and the module loads as it is.
    const dir = mkdtempSync(join(tmpdir(), 'treebench-vendor-cache-'));
    for (const f of ['load.cjs', 'http.cjs.cache']) copyFileSync(join(ROOT, 'dist', 'vendor', f), join(dir, f));
    const source = readFileSync(join(ROOT, 'dist', 'vendor', 'http.cjs'), 'utf8');
    const at = source.indexOf('Update to Node 20 LTS or newer');
    expect(at).toBeGreaterThan(0);
    writeFileSync(join(dir, 'http.cjs'), `${source.slice(0, at)}u${source.slice(at + 1)}`);
    expect(probe(dir)).toEqual({ use: 'stale', openai: 'function', agent: 'function' });
    rmSync(join(dir, 'http.cjs.cache'));
    expect(probe(dir).use).toBe('absent');
  });
});

describe('the command calling a model server', () => {
  let server: FakeOpenAIServer;
  beforeAll(async () => {
    server = await FakeOpenAIServer.start();
    server.onChat = chatCompletion('{"answer": "loopback"}', { prompt: 10, completion: 2 });
  });
  afterAll(() => server.close());

  it("sends every call through its bundled client, compiled from its code cache, without loading Node's fetch", async () => {
    // The sources (a stale build runs them through tsx) use the SDK from node_modules and Node's Headers.
    expect(await buildIsCurrent(ROOT), 'dist/ is older than the sources: run `npm run build`').toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'treebench-vendor-run-'));
    const config = join(dir, 'run.yaml');
    writeFileSync(
      config,
      [
        'name: vendored',
        'dataset:',
        '  format: sample',
        `  path: ${JSON.stringify(join(ROOT, 'datasets', 'sample'))}`,
        'model:',
        '  provider: openai',
        '  model: loopback',
        `  baseURL: ${server.baseURL}`,
        '  priceAs: gpt-4o-mini',
        'embedder: hash',
        'strategies: [vector]',
        'run:',
        '  limit: 5',
        `  outDir: ${JSON.stringify(join(dir, 'runs'))}`,
        '',
      ].join('\n'),
    );
    const child = spawn(process.execPath, ['--import', touchReporter(dir), resolve(ROOT, 'bin/treebench.mjs'), 'run', config, '--run-id', 'r', '--quiet'], {
      cwd: dir,
      env: { ...process.env, OPENAI_API_KEY: 'sk-loopback-not-a-key' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b));
    const status = await new Promise<number | null>((done) => child.on('close', done));
    expect(status, stderr).toBe(0);
    const records = readFileSync(join(dir, 'runs', 'r', 'records.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { answer: string; error?: unknown; calls: number });
    expect(records).toHaveLength(5);
    expect(records.every((r) => !r.error && r.answer === 'loopback')).toBe(true);
    const chat = server.requestsTo('/v1/chat/completions');
    expect(chat).toHaveLength(records.reduce((n, r) => n + r.calls, 0));
    // What the SDK built went out as it would have: its JSON body and its headers.
    expect(chat[0]!.headers['content-type']).toBe('application/json');
    expect(chat[0]!.headers.authorization).toBe('Bearer sk-loopback-not-a-key');
    expect(chat[0]!.headers['x-stainless-lang']).toBe('js');
    expect((chat[0]!.body as { model: string }).model).toBe('loopback');
    expect(touchedIn(stderr)).toEqual([]);
    expect(/^CACHE (.*)$/m.exec(stderr)?.[1]).toBe('accepted');
  }, 60_000);
});

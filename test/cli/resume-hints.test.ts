// The --resume command a stopped run prints is the one to type: it carries every flag of the
// invocation (each --set, which the config hash covers), keeps --retry-errors, and following it
// finishes the run. Each hint below is parsed from stderr and run as printed.
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { latestRecords } from '../../harness/run/store.ts';
import { apiError, chatCompletion, FakeOpenAIServer } from '../helpers/fake-openai-server.ts';
import { cli, recordLines, tmp, writeConfig } from '../resilience/helpers.ts';

/** A loopback port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((done) => srv.listen(0, '127.0.0.1', done));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((done) => srv.close(() => done()));
  return port;
}

/** The words of a shell command as printed (plain words and '…' quoting, which is all the hint uses). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)) words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!);
  return words;
}

/** The resume command printed on stderr, as argv for `treebench` (without the leading word). */
function hint(stderr: string, after: RegExp): string[] {
  const lines = stderr.split('\n');
  const at = lines.findIndex((l) => after.test(l));
  const line = at < 0 ? '' : /treebench run /.test(lines[at]!) ? lines[at]! : (lines[at + 1] ?? '');
  const m = /(treebench run .*)$/.exec(line);
  expect(m, stderr).not.toBeNull();
  return shellWords(m![1]!).slice(1);
}

describe('resume hints', () => {
  it('after a run with --set and --limit stopped by connection failures: printed with every flag, accepted, and it finishes the run', async () => {
    const dir = tmp();
    const port = await freePort();
    const config = writeConfig(dir, {
      model: { provider: 'openai', model: 'm', maxRetries: 0, retryBaseMs: 1 },
      strategies: ['vector'],
      run: { outDir: join(dir, 'runs'), maxConsecutiveFailures: 2, concurrency: 1 },
    });
    const first = await cli('run', config, '--set', `model.baseURL=http://127.0.0.1:${port}/v1`, '--set', 'budget.calls=12', '--limit', '5', '--run-id', 'r', '--quiet');
    expect(first.code, first.err).toBe(1);
    expect(first.err).toMatch(/consecutive connection failures/);
    const argv = hint(first.err, /resume with:/);
    expect(argv).toEqual(['run', config, '--limit', '5', '--set', `model.baseURL=http://127.0.0.1:${port}/v1`, '--set', 'budget.calls=12', '--quiet', '--resume', join(dir, 'runs', 'r')]);

    const server = await FakeOpenAIServer.start(port);
    server.onChat = chatCompletion('{"answer": "the 25th"}');
    try {
      const resumed = await cli(...argv);
      expect(resumed.code, resumed.err).toBe(0);
      expect(latestRecords(recordLines(join(dir, 'runs', 'r', 'records.jsonl')))).toHaveLength(5);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('after --resume --retry-errors stopped by connection failures: keeps --retry-errors, and following it clears the errors', async () => {
    const dir = tmp();
    const failing = await FakeOpenAIServer.start();
    const port = Number(new URL(failing.baseURL).port);
    failing.onChat = apiError(500, 'the model crashed');
    const config = writeConfig(dir, {
      model: { provider: 'openai', model: 'm', baseURL: failing.baseURL, maxRetries: 0, retryBaseMs: 1 },
      strategies: ['vector'],
      run: { outDir: join(dir, 'runs'), maxConsecutiveFailures: 2, concurrency: 1, limit: 4 },
    });
    const first = await cli('run', config, '--run-id', 'r', '--quiet');
    await failing.close();
    expect(first.code, first.err).toBe(3); // every record an error
    const retry = hint(first.err, /after fixing the cause:/);
    expect(retry.slice(-3)).toEqual(['--resume', join(dir, 'runs', 'r'), '--retry-errors']);

    // The server is down now: the retry stops on connection failures, and says what the resume needs.
    const stopped = await cli(...retry);
    expect(stopped.code, stopped.err).toBe(1);
    expect(stopped.err).toMatch(/tasks not run \(no new record written for them\)/);
    const again = hint(stopped.err, /resume with:/);
    expect(again).toContain('--retry-errors');

    const server = await FakeOpenAIServer.start(port);
    server.onChat = chatCompletion('{"answer": "the 25th"}');
    try {
      const done = await cli(...again);
      expect(done.code, done.err).toBe(0);
      const latest = latestRecords(recordLines(join(dir, 'runs', 'r', 'records.jsonl')));
      expect(latest).toHaveLength(4);
      expect(latest.filter((r) => r.error !== null)).toEqual([]);
    } finally {
      await server.close();
    }
  }, 60_000);
});

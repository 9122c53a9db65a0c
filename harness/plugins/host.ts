// The plugins of one run: it turns the config's plugin entries (`module:`, `command:`, `url:`)
// into strategies the runner calls exactly like the built-ins, and owns what they share while the
// run lasts — the corpus file, the model gateway, the worker processes.
//
// Two steps, so that mistakes surface before any work is done:
//   prepare(specs)  before the run folder is opened: imports module plugins and checks their
//                   params against their schemas; checks that worker programs exist.
//   start(run)      once the folder is open: writes `corpus.json`, starts the gateway on
//                   127.0.0.1, starts the workers (stderr to `logs/<id>.stderr.log`).
// Then `strategyFor(spec)` gives each entry's strategy, and `close()` stops everything.
//
// Every plugin question runs the same way: a per-question gateway key is opened on the
// question's metered context, the protocol request is sent through the entry's door, the
// response is checked (harness/plugins/protocol.ts) and turned into the result a built-in
// returns; the key is revoked when the question ends. A failure of the environment met by a
// gateway call (the model server down, a bad key) is rethrown so the run's circuit breaker sees
// it, as it would from a built-in's ctx.chat.
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { ConfigError, UsageError } from '../errors.ts';
import { formatFieldPath } from '../errors.ts';
import { writeFileAtomicSync } from '../files/atomicFile.ts';
import type { StrategySpec } from '../config/runConfig.ts';
import type { MeteredContext } from '../run/context.ts';
import type { Strategy } from '../strategy/strategy.ts';
import type { StrategyContext } from '../strategy/context.ts';
import type { Corpus, QuestionInput, StrategyResult } from '../types.ts';
import type { StrategyPlugin } from './define.ts';
import { ModelGateway, type GatewaySession } from './gateway.ts';
import { loadPlugin } from './load.ts';
import { corpusFile, PROTOCOL, resultFromResponse, type StrategyRequest } from './protocol.ts';
import { StrategyService } from './service.ts';
import { StrategyWorker } from './worker.ts';
import { workerLogFile } from './logFile.ts';

export const CORPUS_FILE = 'corpus.json';

type PluginSource = NonNullable<StrategySpec['source']>;

/** Entries with the same command, folder and environment share one worker process. */
const workerKey = (source: Extract<PluginSource, { kind: 'command' }>): string => JSON.stringify([source.argv, source.cwd, source.env ?? null]);

export interface PluginRunOptions {
  runDir: string;
  corpus: Corpus;
  /** Model ids the gateway reports (the run's chat model and embedder). */
  models: { chat: string; embedding: string };
}

const where = (spec: StrategySpec, ...rest: PropertyKey[]) => formatFieldPath(['strategies', spec.entry ?? 0, ...rest]);
/** `where`, after the `file:line` of the entry when the config came from a file. */
const located = (spec: StrategySpec, ...rest: PropertyKey[]) => `${spec.at ? `${spec.at} ` : ''}${where(spec, ...rest)}`;

export class PluginHost {
  private readonly modules = new Map<string, StrategyPlugin<unknown>>();
  /** Module plugin params parsed by their schemas, by spec id. */
  private readonly parsedParams = new Map<string, unknown>();
  private readonly workers = new Map<string, StrategyWorker>();
  private readonly services = new Map<string, StrategyService>();
  private gateway: ModelGateway | null = null;
  private corpusPath = '';
  private corpus: Corpus | null = null;
  private embeddingModel = '';

  private constructor(private readonly specs: StrategySpec[]) {}

  /** The plugin entries among `specs`, loaded and checked; null when there is none. */
  static async prepare(specs: readonly StrategySpec[]): Promise<PluginHost | null> {
    const plugins = specs.filter((s) => s.source);
    if (!plugins.length) return null;
    const host = new PluginHost(plugins);
    const errors: string[] = [];
    for (const spec of plugins) {
      const source = spec.source!;
      try {
        if (source.kind === 'module') await host.loadModule(spec, source.path);
        if (source.kind === 'command') checkProgram(source.argv[0]!, source.cwd, located(spec, 'command', 0));
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        errors.push(`  ${err.message}`);
      }
    }
    if (errors.length) throw new ConfigError(`invalid config:\n${errors.join('\n')}`);
    return host;
  }

  private async loadModule(spec: StrategySpec, path: string): Promise<void> {
    let plugin = this.modules.get(path);
    if (!plugin) {
      plugin = await loadPlugin<StrategyPlugin<unknown>>(path, 'strategy', located(spec, 'module'));
      this.modules.set(path, plugin);
    }
    if (!plugin.params) {
      this.parsedParams.set(spec.id, spec.params);
      return;
    }
    const parsed = plugin.params.safeParse(spec.params);
    if (!parsed.success) {
      const lines = parsed.error.issues.map((i) => `${where(spec, 'params', ...i.path)}: ${i.message} (${plugin.name}, ${path})`);
      throw new ConfigError(lines.join('\n  '));
    }
    this.parsedParams.set(spec.id, parsed.data);
  }

  /** Writes the corpus file and starts the gateway and the workers of the entries that will run. */
  async start(run: PluginRunOptions, running: readonly StrategySpec[]): Promise<void> {
    const ids = new Set(running.map((s) => s.id));
    this.corpus = run.corpus;
    this.embeddingModel = run.models.embedding;
    this.corpusPath = resolve(run.runDir, CORPUS_FILE);
    writeFileAtomicSync(this.corpusPath, JSON.stringify(corpusFile(run.corpus)));
    this.gateway = new ModelGateway(run.models);
    await this.gateway.start();
    for (const spec of this.specs) {
      const source = spec.source!;
      if (!ids.has(spec.id)) continue;
      if (source.kind === 'command') {
        const key = workerKey(source);
        if (this.workers.has(key)) continue;
        mkdirSync(join(run.runDir, 'logs'), { recursive: true });
        const worker = new StrategyWorker({
          argv: source.argv,
          cwd: source.cwd,
          ...(source.env ? { env: source.env } : {}),
          logPath: join(run.runDir, workerLogFile(spec.id)),
          label: `${spec.id} (${where(spec, 'command')})`,
          ...(source.ready ? { ready: true, readyTimeoutMs: source.timeoutMs } : {}),
        });
        this.workers.set(key, worker); // closed with the others, even when it fails to start
        try {
          await worker.start();
        } catch (err) {
          // A worker that cannot get going (no ready line, an exit while loading) stops the run
          // before its first question: no record is written, and the folder resumes once it is fixed.
          throw new UsageError(`${err instanceof Error ? err.message : String(err)}; its stderr is in ${join(run.runDir, workerLogFile(spec.id))}`);
        }
      }
      if (source.kind === 'url') this.services.set(spec.id, new StrategyService({ url: source.url, ...(source.headers ? { headers: source.headers } : {}), label: spec.id }));
    }
  }

  /** The gateway's address (tests check that it is loopback). */
  get gatewayAddress() {
    return this.gateway?.address ?? null;
  }

  /** The strategy the runner calls for a plugin entry. */
  strategyFor(spec: StrategySpec): Strategy {
    const source = spec.source;
    if (!source) throw new Error(`${spec.id} is not a plugin entry`);
    return {
      name: spec.strategy,
      description: `plugin ${spec.strategy}`,
      params: undefined as never,
      run: (question, ctx) => this.answer(spec, source, question, ctx),
    };
  }

  private async answer(spec: StrategySpec, source: PluginSource, question: QuestionInput, ctx: StrategyContext): Promise<StrategyResult> {
    if (!this.gateway || !this.corpus) throw new Error('the plugin host was not started');
    const session = this.gateway.open(ctx as MeteredContext);
    try {
      const request = this.request(spec, question, ctx, session);
      let reply: unknown;
      try {
        if (source.kind === 'module') {
          const plugin = this.modules.get(source.path)!;
          reply = await plugin.run({ ...request, params: this.parsedParams.get(spec.id) }, ctx);
        } else if (source.kind === 'command') {
          // A restarted worker's load (ready: true) is waiting, as for a call slot, not answering.
          const metered = ctx as MeteredContext;
          reply = await this.workers.get(workerKey(source))!.request(question.id, request, source.timeoutMs, metered.abortSignal, (ms) => (metered.queueMs += ms));
        } else {
          reply = await this.services.get(spec.id)!.request(request, source.timeoutMs, (ctx as MeteredContext).abortSignal);
        }
      } catch (err) {
        throw session.environmentFailure ?? err;
      }
      try {
        return resultFromResponse(reply, this.corpus, request);
      } catch (err) {
        throw session.environmentFailure ?? err;
      }
    } finally {
      this.gateway.close(session.key);
    }
  }

  private request(spec: StrategySpec, question: QuestionInput, ctx: StrategyContext, session: GatewaySession): StrategyRequest {
    return {
      protocol: PROTOCOL,
      questionId: question.id,
      question: question.question,
      ...(question.choices ? { choices: question.choices } : {}),
      ...(question.docIds ? { docIds: question.docIds } : {}),
      params: spec.params,
      corpusPath: this.corpusPath,
      model: { baseURL: this.gateway!.baseURL, apiKey: session.key, model: (ctx as MeteredContext).modelId ?? 'treebench', embeddingModel: this.embeddingModel },
      budget: spec.budget,
      repeat: (ctx as MeteredContext).repeatIndex ?? 0,
      seed: ctx.seed,
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.workers.values()].map((w) => w.close()));
    this.workers.clear();
    await this.gateway?.stop();
    this.gateway = null;
  }
}

/** A worker's program must exist before the run starts: a path (relative to the config) or a name on PATH. */
function checkProgram(program: string, cwd: string, at: string): void {
  if (program.includes('/')) {
    const abs = resolve(cwd, program);
    if (!existsSync(abs) || !statSync(abs).isFile()) throw new ConfigError(`${at}: ${program}: no such file (relative to ${cwd})`);
    return;
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, program), constants.X_OK);
      return;
    } catch {
      // not in this folder
    }
  }
  throw new ConfigError(`${at}: "${program}" is not a program on PATH`);
}

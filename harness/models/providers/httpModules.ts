// Where the model clients' HTTP code comes from: the openai SDK, and what pooledFetch.ts uses of
// undici (its connection pools, its request API, and the Headers class the SDK builds). Loaded on
// first use, synchronously, so that commands and runs that call no model never load them.
//
// This module is the library's (the per-file build, which tests and `import 'treebench'` use):
// it requires the packages from node_modules, each some 20–90 files to resolve and read. The
// command's bundle (bin/bundle.mjs) puts in its place a module of the same two functions that
// takes them from dist/vendor/http.cjs, the same packages at the versions this project pins,
// bundled into one file and compiled from V8's code cache (bin/vendor-load.cjs): a run's start
// reaches its first request sooner, and the installed command needs no `openai` package of its own.
import { createRequire } from 'node:module';
import type OpenAI from 'openai';
import type { Agent, Dispatcher } from 'undici';

/**
 * undici's connection-pool class, its request API (called with a pool as `this`), and the Headers
 * class the SDK in use builds: a reply's headers are made of it, and a request's are read from it.
 */
export interface UndiciParts {
  Agent: typeof Agent;
  request: (this: Agent, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  Headers: typeof Headers;
}

const requireCjs = createRequire(import.meta.url);

/** The openai SDK's client class (its CommonJS build); throws MODULE_NOT_FOUND when the package is absent. */
export function loadOpenAI(): typeof OpenAI {
  return (requireCjs('openai') as { default: typeof OpenAI }).default;
}

/**
 * The two undici modules the pooled fetch uses: the agent (connection pools) and the request API,
 * the function undici's own `request(url, opts)` calls on its dispatcher. Not undici's index,
 * which loads its fetch, WebSocket, caches and mocks too (about three times the load time).
 * undici is pinned to an exact version; test/harness/models/providers/pooledFetch.test.ts runs
 * this path. Headers: the global class, which the SDK from node_modules builds (Node's fetch is
 * undici's); the bundled SDK builds undici's own, bundled beside it (bin/vendor-globals.mjs).
 */
export function loadUndici(): UndiciParts {
  return {
    Agent: requireCjs('undici/lib/dispatcher/agent.js') as typeof Agent,
    request: requireCjs('undici/lib/api/api-request.js') as UndiciParts['request'],
    Headers,
  };
}

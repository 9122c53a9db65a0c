// Loads dist/vendor/http.cjs (the model clients' HTTP code: bin/bundle.mjs) with V8's code cache,
// and, at build time, writes that cache. The build copies this file to dist/vendor/load.cjs.
//
// Why: http.cjs is 0.7 MB of JavaScript that every run calling a model compiles as its client is
// made, in the middle of its start. With the cache V8 reads the compiled code instead of parsing
// and compiling again: the load takes ~38 ms instead of ~50 (and its first request ~2 ms less).
//
// The cache (http.cjs.cache) is the SHA-256 of the http.cjs it was made from, then V8's data.
// It is used only for that very file, and V8 itself refuses data from another Node version or
// other V8 flags (the file is then compiled as without a cache): a stale or foreign cache can
// cost the ~12 ms, never change what runs.
'use strict';
const { createHash } = require('node:crypto');
const { readFileSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

const FILE = join(__dirname, 'http.cjs');
const CACHE = `${FILE}.cache`;
const HASH_BYTES = 32;

/** http.cjs as a CommonJS module's function, compiled with `cachedData` when given. */
function compile(source, cachedData) {
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  return new vm.Script(wrapped, { filename: FILE, ...(cachedData ? { cachedData } : {}) });
}

/** Runs the compiled module; its exports. */
function run(script) {
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, createRequire(FILE), module, FILE, dirname(FILE));
  return module.exports;
}

const sha256 = (text) => createHash('sha256').update(text).digest();

/**
 * What the last loadVendor did with the cache: `accepted` by V8, `rejected` by V8 (another Node or
 * other flags), `stale` (made from another http.cjs, not offered) or `absent`.
 */
exports.cacheUse = null;

/** http.cjs's exports (`OpenAI`, `undici`), compiled from the cache when it was made from this file. */
exports.loadVendor = function loadVendor() {
  const source = readFileSync(FILE, 'utf8');
  let cachedData;
  let use = 'absent';
  try {
    const cache = readFileSync(CACHE);
    use = 'stale';
    if (cache.length > HASH_BYTES && cache.subarray(0, HASH_BYTES).equals(sha256(source))) cachedData = cache.subarray(HASH_BYTES);
  } catch {
    // no cache: compiled as any module is
  }
  const script = compile(source, cachedData);
  if (cachedData) use = script.cachedDataRejected ? 'rejected' : 'accepted';
  exports.cacheUse = use;
  return run(script);
};

/**
 * Build time, in a process of its own (V8 ties the data to the flags of the process that makes
 * it): loads http.cjs, makes a client and sends one request through a fetch that refuses it, so
 * that the code a run's first request takes is compiled too, then writes the cache.
 */
exports.writeCodeCache = async function writeCodeCache() {
  const source = readFileSync(FILE, 'utf8');
  const script = compile(source);
  const { OpenAI, undici } = run(script);
  new undici.Agent().close();
  const client = new OpenAI({ apiKey: 'build', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, fetch: async () => { throw new Error('not sent'); } });
  await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).catch(() => {});
  writeFileSync(CACHE, Buffer.concat([sha256(source), script.createCachedData()]));
};

// The command's bundle (`npm run build` calls this after tsc): cli/main.ts and everything it
// imports, its dependencies included, as one ES module, dist/main.js, plus a chunk per lazily
// loaded part (each command's module, the strategies, the PDF reader, …), so `treebench --help`
// loads one file instead of some 150 and no module resolution, and a run loads only the chunks
// of its command. bin/treebench.mjs runs it; the library face (index.js) stays the per-file tsc
// output, whose declarations users compile against.
//
// The model clients' HTTP code (the openai SDK and what it is sent through of undici) is bundled apart, into
// dist/vendor/http.cjs, which the run loads only when it makes a model client (vendoredHttp below).
//
// Kept out of the bundle, loaded from node_modules at run time as before:
//  - the other optional peers (pdfjs-dist, usearch, LanceDB, tsx): they may be absent, and
//    their absence is a clear error at the point of use;
//  - what the sources load through createRequire (gpt-tokenizer's vocabularies, which only a
//    checkout running its sources reads): esbuild leaves those calls alone.
//
// Every package bundled is listed, with its licence text, in dist/THIRD-PARTY-LICENSES.txt.
import { build } from 'esbuild';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

export const BUNDLE_DIR = 'dist';
const EXTERNAL = ['pdfjs-dist', 'pdfjs-dist/*', 'usearch', '@lancedb/lancedb', 'tsx', 'tsx/*'];

/**
 * Each source finds its files (configs/, datasets/sample/, the PDF worker, package.json) relative
 * to its own import.meta.url. In the bundle that would be the chunk's URL, so every treebench
 * source gets, in place of import.meta.url, the URL its compiled file has (cli/main.ts →
 * cli/main.js), computed from the chunk's own URL: the paths hold in a checkout and in an
 * installed package alike. A dependency's module gets a URL under dist/<package>/ instead (where
 * a dependency sits differs between the two); yargs finds its translations from there, so they
 * are copied to dist/yargs/locales.
 */
function importMetaUrlOfSource(root, outDir) {
  return {
    name: 'import-meta-url-of-source',
    setup(b) {
      b.onLoad({ filter: /\.(ts|m?js)$/ }, async (args) => {
        const rel = relative(root, args.path);
        if (rel.startsWith('..')) return undefined;
        const parts = rel.split(sep);
        const inModules = parts.lastIndexOf('node_modules');
        let text = await readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return inModules >= 0 ? undefined : { contents: text, loader: 'ts' };
        const where = inModules >= 0 ? join(outDir, ...parts.slice(inModules + 1)) : join(root, rel.replace(/\.ts$/, '.js'));
        const url = relative(outDir, where).split(sep).join('/');
        text = text.replaceAll('import.meta.url', `new URL(${JSON.stringify(url)}, import.meta.url).href`);
        return { contents: text, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
      });
    },
  };
}

/**
 * yargs renders its whole help text at every start (to cache it), measuring each line with
 * string-width, whose module builds an Intl.Segmenter when it loads and whose first call
 * compiles an emoji regex: some 100 ms of a start spent on lines of plain text, one column per
 * character. Each import of string-width gets a wrapper that answers for such text itself and loads (require: esbuild then evaluates it lazily) and asks the real module,
 * the very one the importer resolved, for anything else.
 */
function plainStringWidth() {
  return {
    name: 'plain-string-width',
    setup(b) {
      b.onResolve({ filter: /^string-width$/ }, async (args) => {
        if (args.kind !== 'import-statement' || args.pluginData?.real) return undefined;
        const real = await b.resolve('string-width', { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { real: true } });
        if (real.errors.length) return { errors: real.errors };
        return { path: real.path, namespace: 'plain-string-width' };
      });
      b.onLoad({ filter: /.*/, namespace: 'plain-string-width' }, (args) => ({
        contents: [
          // Printable ASCII, Latin-1 and the general punctuation up to U+205E (dashes, quotes,
          // the ellipsis): one column each, those of ambiguous East Asian width too unless the
          // caller asks otherwise. Not the soft hyphen nor the zero-width marks U+200B–U+200F and
          // U+2028–U+202F (no width), nor © ® ‼ ⁉ (emoji: two columns).
          'const ONE_COLUMN = /^[\\x20-\\x7e\\xa0-\\xa8\\xaa-\\xac\\xaf-\\xff\\u2010-\\u2027\\u2030-\\u203b\\u203d-\\u2048\\u204a-\\u205e]*$/;',
          'let real;',
          'export default function stringWidth(string, options) {',
          "  if (typeof string === 'string' && options?.ambiguousIsNarrow !== false && ONE_COLUMN.test(string)) return string.length;",
          `  real ??= require(${JSON.stringify(args.path)}).default;`,
          '  return real(string, options);',
          '}',
        ].join('\n'),
        loader: 'js',
        resolveDir: dirname(args.path),
      }));
    },
  };
}

/**
 * zod's `z` is one namespace object that the chunks share, so esbuild keeps every export of it,
 * its 40 locales too (290 KB of the 570 KB zod brings, parsed at every start). treebench's
 * messages are English: in the bundle, zod's locale index offers English only (`z.locales.en`;
 * `z.config(z.locales.de())` would fail, and nothing in treebench calls it). The library face
 * (index.js) and plugins import zod itself, whole.
 */
function englishOnlyZod() {
  return {
    name: 'english-only-zod',
    setup(b) {
      b.onLoad({ filter: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
        contents: "export { default as en } from './en.js';",
        loader: 'js',
      }));
    },
  };
}

/** The model clients' HTTP code, bundled apart (CommonJS, as the packages are), loaded on first use. */
export const VENDOR_HTTP = 'vendor/http.cjs';
/** What loads it, with V8's code cache (bin/vendor-load.cjs, copied). */
const VENDOR_LOAD = 'vendor/load.cjs';

/**
 * harness/models/providers/httpModules.ts requires the openai SDK and undici's modules from
 * node_modules, some 120 files to resolve and read when a run makes its model client. In the
 * bundle, a module of the same two functions takes its place and takes them from
 * dist/vendor/http.cjs, one file built from the same packages, compiled from V8's code cache
 * (bin/vendor-load.cjs; figures in docs/performance.md). Loaded with the chunk's own require (the
 * banner's), relative to dist/, only when a client is made: `--help`, reports and offline runs
 * never read it.
 */
function vendoredHttp() {
  return {
    name: 'vendored-http',
    setup(b) {
      b.onLoad({ filter: /[\\/]harness[\\/]models[\\/]providers[\\/]httpModules\.ts$/ }, () => ({
        contents: [
          // A name in a variable: esbuild leaves this require to run time.
          `const file = ${JSON.stringify(`./${VENDOR_LOAD}`)};`,
          'let vendor;',
          'const load = () => (vendor ??= require(file).loadVendor());',
          'export const loadOpenAI = () => load().OpenAI;',
          'export const loadUndici = () => load().undici;',
        ].join('\n'),
        loader: 'js',
      }));
    },
  };
}

/** dist/vendor/http.cjs: what vendoredHttp's module hands out, from the packages this checkout pins. */
async function bundleVendorHttp(root, outDir) {
  const { metafile } = await build({
    absWorkingDir: root,
    stdin: {
      contents: [
        "exports.OpenAI = require('openai').default;",
        "exports.undici = { Agent: require('undici/lib/dispatcher/agent.js'), request: require('undici/lib/api/api-request.js'), Headers: require('./bin/vendor-globals.mjs').vendorHeaders };",
      ].join('\n'),
      resolveDir: root,
      sourcefile: 'vendor-http.js',
      loader: 'js',
    },
    outfile: join(outDir, VENDOR_HTTP),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20.19',
    // The SDK's web classes: see bin/vendor-globals.mjs (not Node's lazily loaded fetch classes).
    inject: [join(root, 'bin', 'vendor-globals.mjs')],
    define: { Headers: 'vendorHeaders', FormData: 'vendorFormData', 'globalThis.ReadableStream': 'vendorReadableStream' },
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  // Its loader, and V8's code cache made by a process of its own (see bin/vendor-load.cjs). A
  // cache that cannot be made only costs its ~15 ms: the build says so and goes on.
  const loader = join(outDir, VENDOR_LOAD);
  await cp(join(root, 'bin', 'vendor-load.cjs'), loader);
  try {
    execFileSync(process.execPath, ['-e', 'require(process.argv[1]).writeCodeCache()', loader], { stdio: ['ignore', 'inherit', 'pipe'] });
  } catch (err) {
    console.warn(`warning: no code cache for ${VENDOR_HTTP} (it compiles at each run's first model client instead): ${String(err.stderr || err.message).trim().split('\n')[0]}`);
  }
  return metafile;
}

/**
 * dist/THIRD-PARTY-LICENSES.txt: each package the bundles include (read from esbuild's list of
 * inputs), with its version, its licence and the text of its licence file, so that the copies
 * the bundles carry keep their notices (legalComments: 'none' drops the comments in the code).
 */
async function writeThirdPartyLicenses(root, outDir, metafiles) {
  const packages = new Set();
  for (const metafile of metafiles) {
    for (const input of Object.keys(metafile.inputs)) {
      if (/^[\w-]+:/.test(input)) continue; // a plugin's stand-in (its package's own files are inputs too)
      const parts = input.split('/');
      const at = parts.lastIndexOf('node_modules');
      if (at < 0) continue;
      const dir = parts.slice(0, at + (parts[at + 1].startsWith('@') ? 3 : 2)).join('/');
      packages.add(dir);
    }
  }
  // One section per name and version (a package nested under several others is one copy of text).
  const sections = new Map();
  for (const dir of packages) {
    const pkg = JSON.parse(await readFile(join(root, dir, 'package.json'), 'utf8'));
    const id = `${pkg.name}@${pkg.version}`;
    if (sections.has(id)) continue;
    const file = (await readdir(join(root, dir))).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    const text = file ? (await readFile(join(root, dir, file), 'utf8')).trim() : `(no licence file in the package; package.json says ${pkg.license ?? 'nothing'})`;
    sections.set(id, `${id} (${pkg.license ?? 'licence not stated'})\n\n${text}`);
  }
  const header = 'Packages bundled into the treebench command (dist/), with their licences.\n';
  await writeFile(join(outDir, 'THIRD-PARTY-LICENSES.txt'), [header, ...[...sections.keys()].sort().map((id) => sections.get(id))].join(`\n\n${'-'.repeat(80)}\n\n`) + '\n');
}

/** Builds dist/ from cli/main.ts (removing an earlier bundle first). */
export async function bundleCli(root) {
  const outDir = join(root, BUNDLE_DIR);
  await rm(outDir, { recursive: true, force: true });
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: { main: 'cli/main.ts' },
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    external: EXTERNAL,
    // Bundled CommonJS dependencies (picomatch, yaml, write-file-atomic) call require() for
    // Node's own modules and read __filename; an ES module has neither, so each chunk makes them.
    banner: {
      js: [
        "import { createRequire as __treebenchCreateRequire } from 'node:module';",
        "import { fileURLToPath as __treebenchFileURLToPath } from 'node:url';",
        'const require = __treebenchCreateRequire(import.meta.url);',
        'const __treebenchFilename = __treebenchFileURLToPath(import.meta.url);',
        "const __treebenchDirname = __treebenchFileURLToPath(new URL('.', import.meta.url));",
      ].join('\n'),
    },
    define: { __filename: '__treebenchFilename', __dirname: '__treebenchDirname' },
    plugins: [plainStringWidth(), englishOnlyZod(), vendoredHttp(), importMetaUrlOfSource(root, outDir)],
    // Whitespace and syntax minified (a smaller install: test/packaging caps it), identifiers
    // not, so a bug's stack still names its functions.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    legalComments: 'none',
    metafile: true,
  });
  await writeThirdPartyLicenses(root, outDir, [metafile, await bundleVendorHttp(root, outDir)]);
  const yargs = dirname(createRequire(join(root, 'package.json')).resolve('yargs'));
  await cp(join(yargs, 'locales'), join(outDir, 'yargs', 'locales'), { recursive: true });
  return pathToFileURL(join(outDir, 'main.js')).href;
}

// What the docs test (docs.test.ts) reads out of a Markdown page, and the checks that need no
// CLI: YAML snippets against the real config and gate-rule validators, relative links and
// their anchors, `npm run` script names, and fences without a language.
//
// Conventions the pages follow (and the checks enforce):
// - Every fenced block names its language. `sh` blocks hold commands: each `npx treebench …` /
//   `treebench …` in them is parsed by the real CLI (docs.test.ts). Usage synopses and printed
//   output go in `text` blocks, which are not run.
// - A `yaml` block is a run config. When it has `name`, `dataset` and `strategies` it is a whole
//   config and validates as it is; otherwise it shows some sections of one, and validates as those
//   sections over a minimal config (the bundled sample, one strategy). `${VAR:-default}`
//   placeholders read their defaults, as `treebench run` would with the variable unset.
// - `yaml gates` is a gate rules file (validated as `treebench gate --rules` reads it);
//   `yaml workflow` (GitHub Actions) and `yaml kubernetes` are parsed as YAML, and every
//   treebench command line in their strings is checked like an `sh` block's.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import GithubSlugger from 'github-slugger';
import type { Code, Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';
import { parse as parseShell, type ParseEntry } from 'shell-quote';
import { LineCounter, parseDocument } from 'yaml';
import { validateGateRules } from '../../harness/analysis/gate/rules.ts';
import { validateConfig } from '../../harness/config/runConfig.ts';
import { substituteEnv } from '../../harness/config/variables.ts';

export interface Doc {
  /** Path relative to the repository root, e.g. `docs/configs.md`. */
  file: string;
  text: string;
  root: Root;
}

export interface Block {
  lang: string;
  meta: string;
  value: string;
  /** Line of the opening fence. */
  line: number;
}

/** A treebench invocation found in a page: the arguments after `treebench`. */
export interface CommandLine {
  at: string;
  argv: string[];
}

export const YAML_KINDS = ['', 'gates', 'workflow', 'kubernetes'] as const;
const SHELL_LANGS = new Set(['sh', 'bash', 'shell']);

export function readDoc(file: string, text = readFileSync(file, 'utf8')): Doc {
  return { file, text, root: fromMarkdown(text) };
}

function walk(node: Nodes, visit: (n: Nodes) => void): void {
  visit(node);
  if ('children' in node) for (const c of node.children) walk(c as Nodes, visit);
}

export function codeBlocks(doc: Doc): Block[] {
  const out: Block[] = [];
  walk(doc.root, (n) => {
    if (n.type !== 'code') return;
    const c = n as Code;
    out.push({ lang: c.lang ?? '', meta: c.meta ?? '', value: c.value, line: c.position?.start.line ?? 0 });
  });
  return out;
}

/** GitHub's anchors for the page's headings, in order (duplicates get -1, -2, …). */
export function anchors(doc: Doc): Set<string> {
  const slugger = new GithubSlugger();
  const out = new Set<string>();
  walk(doc.root, (n) => {
    if (n.type === 'heading') out.add(slugger.slug(toString(n)));
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Shell lines

/** Operators that end one simple command and start the next. */
const SEPARATORS = new Set(['|', '||', '&&', ';', '&', '|&', ';;', '(', ')']);

/**
 * The simple commands of a script, each as its words: backslash-newline continuations joined,
 * comments dropped, split at pipes and `&&`/`;`, redirections and their targets left out.
 * `$VAR` stays `$VAR` (no environment is read); a glob stays its pattern.
 */
export function simpleCommands(script: string): string[][] {
  const out: string[][] = [];
  for (const line of script.replace(/\\\r?\n/g, ' ').split(/\r?\n/)) {
    if (!line.trim()) continue;
    const entries: ParseEntry[] = parseShell(line, (key: string) => `$${key}`);
    let words: string[] = [];
    let skipNext = false;
    for (const e of entries) {
      if (typeof e === 'string') {
        if (skipNext) skipNext = false;
        else words.push(e);
        continue;
      }
      if ('comment' in e) break;
      if ('op' in e && e.op === 'glob') {
        if (skipNext) skipNext = false;
        else words.push((e as { pattern: string }).pattern);
        continue;
      }
      if ('op' in e && SEPARATORS.has(e.op)) {
        if (words.length) out.push(words);
        words = [];
        continue;
      }
      // A redirection (>, >>, <, >&, <(…)): its target is not an argument.
      skipNext = true;
    }
    if (words.length) out.push(words);
  }
  return out;
}

/** Leading `NAME=value` words of a simple command (environment for that command). */
const stripAssignments = (words: string[]): string[] => {
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++;
  return words.slice(i);
};

/** The arguments of a treebench invocation, or undefined if the command is something else. */
export function treebenchArgs(words: string[]): string[] | undefined {
  const w = stripAssignments(words);
  if (w[0] === 'npx' && w[1] === 'treebench') return w.slice(2);
  if (w[0] === 'treebench') return w.slice(1);
  return undefined;
}

/** GitHub Actions expressions (`${{ matrix.shard }}`) read as `1`, so `${{ matrix.shard }}/4` is a shard. */
const withoutExpressions = (s: string) => s.replace(/\$\{\{[^}]*\}\}/g, '1');

function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) stringsOf(v, out);
  return out;
}

/** Every simple command of the page's `sh` blocks and of its workflow/kubernetes YAML strings. */
export function pageCommands(doc: Doc): Array<{ at: string; words: string[]; inYaml?: true }> {
  const out: Array<{ at: string; words: string[]; inYaml?: true }> = [];
  for (const b of codeBlocks(doc)) {
    if (SHELL_LANGS.has(b.lang)) {
      // Line numbers: the fence is b.line, the block's first line b.line + 1.
      const lines = b.value.split('\n');
      for (let i = 0; i < lines.length; i++) {
        let text = lines[i]!;
        let j = i;
        while (text.endsWith('\\') && j + 1 < lines.length) text = text.slice(0, -1) + ' ' + lines[++j];
        for (const words of simpleCommands(text)) out.push({ at: `${doc.file}:${b.line + 1 + i}`, words });
        i = j;
      }
    } else if (b.lang === 'yaml' && b.meta !== '' && b.meta !== 'gates') {
      const parsed = parseDocument(b.value);
      if (parsed.errors.length) continue; // reported by checkYamlBlocks
      for (const s of stringsOf(parsed.toJS())) {
        for (const words of simpleCommands(withoutExpressions(s))) out.push({ at: `${doc.file}:${b.line}`, words, inYaml: true });
      }
    }
  }
  return out;
}

export function commandLines(doc: Doc): CommandLine[] {
  return pageCommands(doc).flatMap(({ at, words, inYaml }) => {
    // In YAML only `npx treebench …` is a command: a bare "treebench" there is a name or a label.
    if (inYaml && stripAssignments(words)[0] !== 'npx') return [];
    const argv = treebenchArgs(words);
    return argv ? [{ at, argv }] : [];
  });
}

/** `npm run <script>` names a script of package.json; `node <file>` names a file that exists. */
export function checkTools(doc: Doc, scripts: Record<string, string>, root: string): string[] {
  const problems: string[] = [];
  for (const { at, words } of pageCommands(doc)) {
    const w = stripAssignments(words);
    if (w[0] === 'npm' && (w[1] === 'run' || w[1] === 'run-script')) {
      const name = w[2];
      if (!name || !(name in scripts)) problems.push(`${at}: npm run ${name ?? ''}: no such script in package.json`);
    } else if (w[0] === 'node') {
      const file = w.slice(1).find((a) => !a.startsWith('-'));
      if (file && /\.(mjs|js|ts)$/.test(file) && !existsSync(join(root, file))) problems.push(`${at}: node ${file}: no such file`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// YAML

/** What a partial snippet's sections are validated over: the bundled sample, one strategy. */
export const BASE_CONFIG = { name: 'docs-snippet', dataset: { format: 'sample' }, strategies: ['vector'] } as const;

const isWholeConfig = (data: Record<string, unknown>) => ['name', 'dataset', 'strategies'].every((k) => k in data);

/** A `yaml` block's problems, each naming the page line; [] when it validates. */
export function checkYamlBlock(doc: Doc, b: Block): string[] {
  if (b.lang !== 'yaml') return [];
  const at = (line?: number) => `${doc.file}:${line === undefined ? b.line : b.line + line}`;
  if (!(YAML_KINDS as readonly string[]).includes(b.meta)) return [`${at()}: unknown yaml block kind "${b.meta}" (use one of: ${YAML_KINDS.map((k) => k || '(none: a config)').join(', ')})`];
  const lineCounter = new LineCounter();
  const parsed = parseDocument(b.value, { lineCounter });
  if (parsed.errors.length) {
    const e = parsed.errors[0]!;
    return [`${at(e.linePos?.[0]?.line)}: YAML syntax error: ${e.message.split('\n')[0]}`];
  }
  if (b.meta === 'workflow' || b.meta === 'kubernetes') return [];
  const data = parsed.toJS() as unknown;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return [`${at()}: a ${b.meta || 'config'} snippet must be a YAML mapping`];
  // Messages name the snippet's line within the page.
  const where = (path: PropertyKey[]) => {
    for (let n = path.length; n >= 0; n--) {
      const node = parsed.getIn(path.slice(0, n) as (string | number)[], true) as { range?: [number, number, number] } | undefined;
      if (node && typeof node === 'object' && node.range) return at(lineCounter.linePos(node.range[0]).line);
    }
    return at();
  };
  try {
    if (b.meta === 'gates') validateGateRules(data, where);
    else {
      const input = isWholeConfig(data as Record<string, unknown>) ? data : { ...BASE_CONFIG, ...data };
      validateConfig(substituteEnv(input, {}, where).data, where);
    }
  } catch (err) {
    return [(err as Error).message];
  }
  return [];
}

export function checkYamlBlocks(doc: Doc): string[] {
  return codeBlocks(doc).flatMap((b) => checkYamlBlock(doc, b));
}

/** Fences must say what they hold, so that no command or config escapes the checks. */
export function checkFenceLanguages(doc: Doc): string[] {
  return codeBlocks(doc)
    .filter((b) => !b.lang)
    .map((b) => `${doc.file}:${b.line}: fenced block without a language (sh for commands, yaml for configs, text for output and synopses)`);
}

// ---------------------------------------------------------------------------------------------
// Links

export interface LinkTarget {
  at: string;
  url: string;
  /** Repository-relative path of the target file ('' when the link is only an anchor). */
  path: string;
  anchor?: string;
}

/** Relative links and images of a page (external URLs left out), resolved from its folder. */
export function relativeLinks(doc: Doc): LinkTarget[] {
  const out: LinkTarget[] = [];
  walk(doc.root, (n) => {
    if (n.type !== 'link' && n.type !== 'image' && n.type !== 'definition') return;
    const url = (n as { url: string }).url;
    if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) return;
    const [rawPath, anchor] = url.split('#', 2) as [string, string | undefined];
    const path = rawPath ? normalize(join(dirname(doc.file), decodeURIComponent(rawPath))) : doc.file;
    out.push({ at: `${doc.file}:${n.position?.start.line ?? 0}`, url, path, ...(anchor !== undefined ? { anchor } : {}) });
  });
  return out;
}

/** Every relative link names a file that exists and, with `#anchor`, a heading of that page. */
const pageCache = new Map<string, Set<string>>();
const anchorsOfFile = (root: string, path: string): Set<string> => {
  const key = join(root, path);
  let found = pageCache.get(key);
  if (!found) pageCache.set(key, (found = anchors(readDoc(path, readFileSync(key, 'utf8')))));
  return found;
};

export function checkLinks(doc: Doc, root: string): string[] {
  const problems: string[] = [];
  for (const l of relativeLinks(doc)) {
    const abs = join(root, l.path);
    if (l.path !== doc.file && !existsSync(abs)) {
      problems.push(`${l.at}: link ${l.url}: ${l.path} does not exist`);
      continue;
    }
    if (l.anchor === undefined) continue;
    if (!l.path.endsWith('.md') || (l.path !== doc.file && statSync(abs).isDirectory())) {
      problems.push(`${l.at}: link ${l.url}: an anchor into something that is not a Markdown page`);
      continue;
    }
    const targetAnchors = l.path === doc.file ? anchors(doc) : anchorsOfFile(root, l.path);
    if (!targetAnchors.has(l.anchor)) problems.push(`${l.at}: link ${l.url}: ${l.path} has no heading #${l.anchor}`);
  }
  return problems;
}

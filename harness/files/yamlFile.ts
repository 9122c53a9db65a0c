// Reading a YAML file so that validation errors can point at lines: the parsed value, plus a
// `where(fieldPath)` that turns a field path into `file:line`.
import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument } from 'yaml';
import { ConfigError } from '../errors.ts';
import { inputFileProblem, MAX_CONFIG_BYTES } from './inputFile.ts';

export interface YamlFile {
  raw: string;
  data: unknown;
  /** `file:line` of a field path (or of its closest ancestor that has a position). */
  where: (fieldPath: PropertyKey[]) => string;
}

/** Reads and parses `path`; unreadable files and YAML syntax errors become ConfigErrors. */
export function readYamlFile(path: string, what: string, maxBytes = MAX_CONFIG_BYTES): YamlFile {
  // A FIFO would block, /dev/zero never ends, and parsing takes ~50x the text in memory: refused first.
  const problem = inputFileProblem(path, maxBytes);
  if (problem) throw new ConfigError(`cannot read ${what} ${path}: ${problem}`);
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read ${what} ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(raw, { lineCounter });
  if (doc.errors.length) {
    const e = doc.errors[0];
    const line = e.linePos?.[0]?.line;
    throw new ConfigError(`${path}${line ? `:${line}` : ''}: YAML syntax error: ${e.message.split('\n')[0]}`);
  }
  const where = (fieldPath: PropertyKey[]) => {
    for (let n = fieldPath.length; n >= 0; n--) {
      const node = doc.getIn(fieldPath.slice(0, n) as (string | number)[], true) as { range?: [number, number, number] } | undefined;
      if (node && typeof node === 'object' && node.range) return `${path}:${lineCounter.linePos(node.range[0]).line}`;
    }
    return path;
  };
  let data: unknown;
  try {
    // toJS resolves aliases: an alias used before its anchor (or a runaway alias bomb) fails here.
    data = doc.toJS({ maxAliasCount: 1000 });
  } catch (err) {
    throw new ConfigError(`${path}: YAML error: ${(err as Error).message.split('\n')[0]}`);
  }
  return { raw, data, where };
}

// Questions from JSONL, CSV/TSV or a JSON array, through a field mapping taken from the config, so
// a user's own format loads without code:
//
//   mapping:
//     id: financebench_id            # default: the record's ordinal (1, 2, ...) or its key in a JSON dict
//     question: question             # default: "question"
//     answers: answer                # string, array, or a string split by answersSeparator;
//                                    # a list of fields gives alternatives: [Answer_True, Yes_No_True]
//     answersSeparator: "|"
//     ignoreAnswers: [None]          # answer values that mean "no answer" (compared trimmed, any case)
//     records: data.items            # JSON files: dotted path to the array (or dict) of records
//     docIds: doc_name               # documents the question names (visible to strategies)
//     evidenceDocId: Document_True   # gold document(s) (scorers only)
//     docIdStripExtension: true      # "guide/File.md" -> "guide/File"
//     pages: evidence.0.page         # dotted paths reach into nested JSON
//     pageBase: 0                    # 0-based pages in the file -> 1-based inside treebench
//     evidenceItems: { path: evidence, docId: doc_name, pages: evidence_page_num }
//     nodeTitlePath: section_path    # gold as a path of node titles ("Settings>Display>Font size"),
//     titlePathSeparator: ">"        #   resolved against the corpus after it loads (datasets/titlePath.ts)
//     tags: [question_type]
//
// Ids default to the record's ordinal (1-based, blank lines and CSV multi-line fields do not
// count), not its physical line. Values of list fields (docIds, evidenceDocId, nodeIds, pages,
// choices, tags) that are stringified lists (`"[3, 5]"`, `"['a', 'b']"`) are read as lists;
// question and answers text is never parsed (a list-shaped answer stays one answer).
//
// Without a mapping the records are read as treebench's own Question JSON (the sample format).
// Gold evidence never feeds `docIds`: strategies may read docIds, and gold must not leak to them.
import path from 'node:path';
import { createRequire } from 'node:module';
import type { parse as ParseCsv } from 'csv-parse/sync';
import { z } from 'zod';
import type { GoldEvidence, Question } from '../harness/types.ts';
import { DataError, preview } from './errors.ts';
import { parseJson, parseJsonLine, readText } from './files.ts';
import { unstringifyList } from './listString.ts';
import { matchesFilter, type RecordFilter } from './recordFilter.ts';

export { evidenceItemsSchema, questionMappingSchema, type QuestionMapping, type QuestionMappingInput } from '../harness/config/dataSections.ts';
import { questionMappingSchema, type QuestionMapping, type QuestionMappingInput } from '../harness/config/dataSections.ts';

/** treebench's own Question JSON, used when no mapping is given. */
export const NATIVE_MAPPING: QuestionMappingInput = {
  id: 'id',
  question: 'question',
  answers: 'answers',
  choices: 'choices',
  label: 'label',
  docIds: 'docIds',
  tags: 'tags',
  evidenceItems: { path: 'evidence', docId: 'docId', nodeIds: 'nodeIds', pages: 'pages' },
};

export type QuestionFileFormat = 'jsonl' | 'csv' | 'json';

export interface LoadQuestionsOptions {
  /** Overrides detection by file extension (.jsonl/.ndjson, .csv/.tsv, .json). */
  format?: QuestionFileFormat;
  /** Field name prefix for mapping errors (e.g. `dataset.mapping`). */
  mappingField?: string;
  /** Keep only raw records that pass (dataset.filter). */
  filter?: RecordFilter;
  /** `skip`: a record that cannot be mapped is counted and left out instead of stopping the load. */
  onInvalid?: 'fail' | 'skip';
}

/** Questions with what happened to the other records. */
export interface QuestionSet {
  questions: Question[];
  /** Records read from the file. */
  read: number;
  /** Records the filter left out. */
  filtered: number;
  /** Records left out by `onInvalid: skip`, with the error that made each invalid. */
  skipped: DataError[];
}

/**
 * Gold title paths waiting for the corpus: the mapping cannot know node ids, so it parks the
 * paths here and loadBenchmarkData resolves them (datasets/titlePath.ts) into evidence node ids.
 */
export interface PendingTitlePaths {
  /** Document named by the record (evidenceDocId, docIds or defaultDocId), if any. */
  docId?: string;
  paths: string[][];
  where: string;
}
export const pendingTitlePaths = new WeakMap<Question, PendingTitlePaths>();

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Validates a mapping from a config; errors name `mapping.<key>`. */
export function parseQuestionMapping(input: unknown, field = 'mapping', file?: string): QuestionMapping {
  const r = questionMappingSchema.safeParse(input ?? {});
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const at = [field, ...issue.path.map(String)].join('.');
  throw new DataError(issue.message, { file, field: at });
}

export function detectQuestionFormat(file: string): QuestionFileFormat {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.csv' || ext === '.tsv') return 'csv';
  if (ext === '.json') return 'json';
  return 'jsonl';
}

/** A raw record and where it came from. */
interface SourceRecord {
  data: unknown;
  line?: number;
  /** Prefix for field paths when there is no line (JSON arrays): `[3].`. */
  prefix: string;
  /** Default id: the record's 1-based ordinal (or its key in a JSON dict). */
  defaultId: string;
}

export function loadQuestions(file: string, mapping?: QuestionMappingInput | QuestionMapping, opts: LoadQuestionsOptions = {}): Question[] {
  return loadQuestionSet(file, mapping, opts).questions;
}

/** Reads, filters and maps the records of a question file; see LoadQuestionsOptions. */
export function loadQuestionSet(file: string, mapping?: QuestionMappingInput | QuestionMapping, opts: LoadQuestionsOptions = {}): QuestionSet {
  const m = parseQuestionMapping(mapping ?? NATIVE_MAPPING, opts.mappingField ?? 'mapping');
  const format = opts.format ?? detectQuestionFormat(file);
  const skip = opts.onInvalid === 'skip';
  const skipped: DataError[] = [];
  const text = readText(file);
  const records =
    format === 'csv'
      ? readCsvRecords(text, file, m, path.extname(file).toLowerCase() === '.tsv' ? '\t' : ',')
      : format === 'json'
        ? readJsonRecords(text, file, m.records)
        : readJsonl(text, file, skip ? skipped : null);
  const read = records.length + skipped.length;
  let filtered = 0;
  const seen = new Map<string, string>();
  const out: Question[] = [];
  const mapper = new RecordMapper(m, file);
  for (const rec of records) {
    if (opts.filter && !matchesFilter(opts.filter, (f) => getPath(rec.data, f))) {
      filtered++;
      continue;
    }
    try {
      const q = mapper.map(rec);
      const where = rec.line !== undefined ? `line ${rec.line}` : `record ${rec.defaultId}`;
      const prev = seen.get(q.id);
      if (prev !== undefined) throw new DataError(`duplicate question id "${q.id}" (first at ${prev})`, { file, line: rec.line, field: rec.prefix + (m.id ?? 'id') });
      seen.set(q.id, where);
      out.push(q);
    } catch (err) {
      if (!skip || !(err instanceof DataError)) throw err;
      skipped.push(err);
    }
  }
  if (skip && out.length === 0 && skipped.length > 0) {
    throw new DataError(`every one of the ${skipped.length} records is invalid (onInvalid: skip keeps none); the first: ${skipped[0].message}`, {
      file,
      field: 'dataset.onInvalid',
    });
  }
  return { questions: out, read, filtered, skipped };
}

function readJsonl(text: string, file: string, skipped: DataError[] | null): SourceRecord[] {
  const out: SourceRecord[] = [];
  const lines = text.split(/\r?\n/);
  let ordinal = 0;
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    ordinal++;
    try {
      const data = parseJsonLine(raw, file, i);
      if (!isObject(data)) throw new DataError(`expected a JSON object per line, got ${preview(data)}`, { file, line });
      out.push({ data, line, prefix: '', defaultId: String(ordinal) });
    } catch (err) {
      if (!skipped || !(err instanceof DataError)) throw err;
      skipped.push(err);
    }
  });
  return out;
}

/**
 * A JSON file of records: an array, `{ "questions": [...] }`, or the array (or dict of records)
 * at the dotted path `records`. A dict's keys become the default ids.
 */
function readJsonRecords(text: string, file: string, recordsPath: string | undefined): SourceRecord[] {
  const data = parseJson(text, file);
  const at = recordsPath ? getPath(data, recordsPath) : Array.isArray(data) ? data : isObject(data) && Array.isArray(data.questions) ? data.questions : data;
  const base = recordsPath ? `${recordsPath}.` : isObject(data) && Array.isArray(data.questions) ? 'questions.' : '';
  if (Array.isArray(at)) {
    return at.map((d, i) => {
      if (!isObject(d)) throw new DataError(`expected a question object, got ${preview(d)}`, { file, field: `${base}${i}` });
      return { data: d, prefix: `${base}${i}.`, defaultId: String(i + 1) };
    });
  }
  if (isObject(at) && Object.values(at).length > 0 && Object.values(at).every(isObject)) {
    return Object.entries(at).map(([k, d]) => ({ data: d, prefix: `${base}${k}.`, defaultId: k }));
  }
  const what = recordsPath ? `mapping.records "${recordsPath}" points at ${preview(at)}` : 'the file is not a JSON array of question objects';
  throw new DataError(`${what}; expected an array of records or a dict of them (set mapping.records to the dotted path of the list)`, {
    file,
    field: recordsPath ? 'mapping.records' : undefined,
  });
}

function readCsvRecords(text: string, file: string, m: QuestionMapping, defaultDelimiter: string): SourceRecord[] {
  const rows = parseCsvRecords(text, file, m.delimiter ?? defaultDelimiter);
  checkCsvColumns(rows[0]?.record, file, m);
  return rows.map(({ record, line }, i) => ({ data: record, line, prefix: '', defaultId: String(i + 1) }));
}

// The CSV parser is required by the first CSV file read, not with every question file.
const requireCjs = createRequire(import.meta.url);
let csvParse: typeof ParseCsv | undefined;

/**
 * CSV with a header row into objects, each with the 1-based line its record starts on (quoted
 * fields may span lines). A byte order mark is dropped; malformed CSV is a DataError with a line.
 */
export function parseCsvRecords(text: string, file: string, delimiter = ','): Array<{ record: Record<string, string>; line: number }> {
  // csv-parse counts a CRLF as two line breaks in its line numbers; normalise first.
  const input = text.replace(/\r\n?/g, '\n');
  let rows: Array<{ record: Record<string, string>; info: { lines: number }; raw: string }>;
  try {
    csvParse ??= (requireCjs('csv-parse/sync') as { parse: typeof ParseCsv }).parse;
    rows = csvParse(input, { columns: true, bom: true, info: true, raw: true, skip_empty_lines: true, delimiter }) as unknown as typeof rows;
  } catch (err) {
    const e = err as Error & { lines?: number };
    throw new DataError(`invalid CSV: ${e.message}`, { file, line: e.lines }, { cause: err });
  }
  return rows.map(({ record, info, raw }) => {
    // info.lines is the record's last line; count the line breaks inside it to find its first.
    const body = raw.replace(/^\n+/, '').replace(/\n$/, '');
    return { record, line: info.lines - (body.match(/\n/g)?.length ?? 0) };
  });
}

/** Mapped top-level columns must exist, so a typo in the mapping fails once, clearly. */
function checkCsvColumns(first: Json | undefined, file: string, m: QuestionMapping): void {
  if (!first) return;
  const columns = Object.keys(first);
  const refs: Array<[string, string | undefined]> = [
    ['id', m.id],
    ['question', m.question],
    ...(m.answers === undefined ? [] : (Array.isArray(m.answers) ? m.answers : [m.answers]).map((a): [string, string] => ['answers', a])),
    ['nodeTitlePath', m.nodeTitlePath],
    ['choices', m.choices],
    ['label', m.label],
    ['docIds', m.docIds],
    ['evidenceDocId', m.evidenceDocId],
    ['nodeIds', m.nodeIds],
    ['pages', m.pages],
    ...(m.tags === undefined ? [] : (Array.isArray(m.tags) ? m.tags : [m.tags]).map((t): [string, string] => ['tags', t])),
  ];
  for (const [key, ref] of refs) {
    if (ref === undefined || columns.includes(ref)) continue;
    const head = ref.split('.')[0];
    if (columns.includes(head)) continue;
    // The native default mapping names optional fields that a CSV need not have.
    if (key !== 'question' && key !== 'answers' && ref === (NATIVE_MAPPING as Json)[key]) continue;
    throw new DataError(`mapping.${key} names column "${ref}", which the header does not have (columns: ${columns.join(', ')})`, {
      file,
      line: 1,
      field: ref,
    });
  }
}

/** Reads a value by exact key first (CSV headers may contain dots), then by dotted path. */
export function getPath(obj: unknown, ref: string): unknown {
  if (isObject(obj) && (Object.hasOwn(obj, ref) || !ref.includes('.'))) return obj[ref];
  let cur: unknown = obj;
  for (const part of ref.split('.')) {
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(part)) return undefined;
      cur = cur[Number(part)];
    } else if (isObject(cur)) cur = cur[part];
    else return undefined;
  }
  return cur;
}

/** Missing, null, blank and empty lists all mean "not given" (CSV cells are never undefined). */
const isAbsent = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/**
 * Appends the non-blank strings `x` stands for (a string, split by `sep` when given, trimmed; a
 * finite number; a boolean) to `out`; false, appending nothing, for any other value. (A loop,
 * not a closure and two arrays per value: it runs for every field of every record.)
 */
function pushStrings(out: string[], x: unknown, sep: string | undefined): boolean {
  if (typeof x === 'string') {
    if (sep === undefined || sep === '') {
      const t = x.trim();
      if (t !== '') out.push(t);
    } else {
      for (const part of x.split(sep)) {
        const t = part.trim();
        if (t !== '') out.push(t);
      }
    }
    return true;
  }
  if ((typeof x === 'number' && Number.isFinite(x)) || typeof x === 'boolean') {
    out.push(String(x));
    return true;
  }
  return false;
}

/**
 * Maps the records of one file through one mapping: what depends on the mapping alone (the
 * answer and tag fields, the ignored answers) is worked out once, not per record.
 */
class RecordMapper {
  /** The record being mapped. */
  private rec!: SourceRecord;
  private readonly answerRefs: readonly string[];
  private readonly ignore: ReadonlySet<string>;
  private readonly tagRefs: readonly string[];

  constructor(
    readonly m: QuestionMapping,
    readonly file: string,
  ) {
    this.answerRefs = m.answers === undefined ? [] : Array.isArray(m.answers) ? m.answers : [m.answers];
    this.ignore = new Set(m.ignoreAnswers.map((x) => x.trim().toLowerCase()));
    this.tagRefs = m.tags === undefined ? [] : Array.isArray(m.tags) ? m.tags : [m.tags];
  }

  fail(ref: string, target: string, msg: string, base = ''): never {
    const field = this.rec.prefix + (base ? `${base}.` : '') + ref;
    const mapped = ref !== target && !ref.endsWith(`.${target}`) ? ` (mapped to ${target})` : '';
    throw new DataError(msg + mapped, { file: this.file, line: this.rec.line, field });
  }

  get(ref: string, from: unknown = this.rec.data): unknown {
    const v = getPath(from, ref);
    return isAbsent(v) ? undefined : v;
  }

  /** A string, a number, or an array of them; strings split by `sep` when given. */
  strings(v: unknown, ref: string, target: string, sep: string | undefined, what: string, base = ''): string[] {
    if (target !== 'answers') v = unstringifyList(v);
    const out: string[] = [];
    if (Array.isArray(v)) {
      for (const x of v) {
        if (x !== null && !pushStrings(out, x, sep)) this.fail(ref, target, `expected ${what}, got an array containing ${preview(x)}`, base);
      }
    } else if (!pushStrings(out, v, sep)) this.fail(ref, target, `expected ${what}, got ${preview(v)}`, base);
    return out;
  }

  pages(v: unknown, ref: string, base = ''): number[] {
    const base0 = this.m.pageBase;
    v = unstringifyList(v);
    const bad = (x: unknown): never => this.fail(ref, 'pages', `expected a page number or list of page numbers (${base0}-based), got ${preview(x)}`, base);
    const parts: unknown[] = Array.isArray(v)
      ? v
      : typeof v === 'string'
        ? v.split(this.m.listSeparator ?? /[\s,;|]+/).filter((s) => s.trim() !== '')
        : [v];
    const out: number[] = [];
    for (const p of parts) {
      if (p === null) continue;
      const n = typeof p === 'string' && /^\s*\d+\s*$/.test(p) ? Number(p) : p;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < base0) bad(p);
      const page = (n as number) + (1 - base0);
      if (!out.includes(page)) out.push(page);
    }
    return out;
  }

  docId(s: string): string {
    return this.m.docIdStripExtension ? s.replace(/\.[A-Za-z0-9]{1,8}$/, '') : s;
  }

  label(v: unknown, ref: string, choices: string[] | undefined): number {
    if (!choices) this.fail(ref, 'label', 'a label needs choices (map "choices" too)');
    let idx: number | undefined;
    if (typeof v === 'number' && Number.isInteger(v)) idx = v;
    else if (typeof v === 'string') {
      const t = v.trim();
      if (/^\d+$/.test(t)) idx = Number(t);
      else {
        const letter = /^\(?([A-Za-z])[).:]?$/.exec(t);
        if (letter) idx = letter[1].toUpperCase().charCodeAt(0) - 65;
      }
    }
    if (idx === undefined) this.fail(ref, 'label', `expected a choice index (0-based) or a letter A-${String.fromCharCode(64 + Math.min(choices.length, 26))}, got ${preview(v)}`);
    if (idx < 0 || idx >= choices.length) this.fail(ref, 'label', `label ${preview(v)} is outside the ${choices.length} choices`);
    return idx;
  }

  map(rec: SourceRecord): Question {
    this.rec = rec;
    const m = this.m;
    const idRaw = m.id ? this.get(m.id) : this.rec.defaultId;
    if (idRaw === undefined) this.fail(m.id!, 'id', 'missing required field');
    if (typeof idRaw !== 'string' && typeof idRaw !== 'number') this.fail(m.id!, 'id', `expected a string or number, got ${preview(idRaw)}`);
    const id = String(idRaw).trim();

    const qRaw = this.get(m.question);
    if (qRaw === undefined) this.fail(m.question, 'question', 'missing required field');
    if (typeof qRaw !== 'string') this.fail(m.question, 'question', `expected a string, got ${preview(qRaw)}`);
    const q: Question = { id, question: qRaw.trim(), answers: [] };

    if (m.choices) {
      const v = this.get(m.choices);
      if (v !== undefined) q.choices = this.strings(v, m.choices, 'choices', m.listSeparator, 'a string or array of strings');
    }
    if (m.label) {
      const v = this.get(m.label);
      if (v !== undefined) q.label = this.label(v, m.label, q.choices);
    }
    if (m.answers) {
      // Several fields are alternatives (`[Answer_True, Yes_No_True]`); ignored values mean "none here".
      const { answerRefs: refs, ignore } = this;
      let answers: string[] = [];
      for (const ref of refs) {
        const v = this.get(ref);
        if (v === undefined) continue;
        const found = this.strings(v, ref, 'answers', m.answersSeparator, 'a string or array of strings');
        if (ignore.size === 0 && answers.length === 0) answers = found;
        else for (const a of found) if (!ignore.has(a.toLowerCase())) answers.push(a);
      }
      q.answers = dedupe(answers);
      // A multiple-choice question is answered by its label; anything else needs an answer.
      if (!q.answers.length && q.label === undefined) {
        this.fail(refs[0], 'answers', refs.length > 1 || ignore.size ? `no answer in ${refs.join(', ')} (after ignoreAnswers)` : 'missing required field');
      }
    }
    if (m.docIds) {
      const v = this.get(m.docIds);
      if (v !== undefined) q.docIds = dedupe(this.strings(v, m.docIds, 'docIds', m.listSeparator, 'a string or array of strings').map((s) => this.docId(s)));
    }
    const evidence = this.evidence(q);
    if (evidence.length) q.evidence = evidence;
    if (m.nodeTitlePath) this.titlePaths(q);
    const tags = this.tags();
    if (tags.length) q.tags = tags;
    return q;
  }

  /** Document for record-level nodeIds/pages when no evidence document is named. */
  fallbackDoc(q: Question): string | undefined {
    return this.m.defaultDocId ?? (q.docIds?.length === 1 ? q.docIds[0] : undefined);
  }

  evidence(q: Question): GoldEvidence[] {
    const m = this.m;
    const items: GoldEvidence[] = [];
    if (m.evidenceItems) {
      const spec = m.evidenceItems;
      const v = this.get(spec.path);
      if (v !== undefined) {
        const list = Array.isArray(v) ? v : [v];
        list.forEach((item, i) => {
          const base = `${spec.path}.${i}`;
          if (!isObject(item)) this.fail(spec.path, 'evidence', `expected evidence objects, item ${i} is ${preview(item)}`);
          const docRaw = spec.docId ? this.get(spec.docId, item) : undefined;
          if (docRaw !== undefined && typeof docRaw !== 'string' && typeof docRaw !== 'number') {
            this.fail(spec.docId!, 'docId', `expected a string, got ${preview(docRaw)}`, base);
          }
          const docId = docRaw !== undefined ? this.docId(String(docRaw).trim()) : this.fallbackDoc(q);
          if (docId === undefined) this.fail(spec.docId ?? 'docId', 'docId', 'missing evidence document (map evidenceItems.docId, docIds or set defaultDocId)', base);
          const ev: GoldEvidence = { docId };
          if (spec.nodeIds) {
            const nv = this.get(spec.nodeIds, item);
            if (nv !== undefined) ev.nodeIds = this.strings(nv, spec.nodeIds, 'nodeIds', m.listSeparator, 'a string or array of strings', base);
          }
          if (spec.pages) {
            const pv = this.get(spec.pages, item);
            if (pv !== undefined) ev.pages = this.pages(pv, spec.pages, base);
          }
          items.push(ev);
        });
      }
    }
    const docs = m.evidenceDocId ? this.get(m.evidenceDocId) : undefined;
    const evDocs = docs === undefined ? [] : this.strings(docs, m.evidenceDocId!, 'evidenceDocId', m.listSeparator, 'a string or array of strings').map((s) => this.docId(s));
    const nv = m.nodeIds ? this.get(m.nodeIds) : undefined;
    const nodeIds = nv === undefined ? undefined : this.strings(nv, m.nodeIds!, 'nodeIds', m.listSeparator, 'a string or array of strings');
    const pv = m.pages ? this.get(m.pages) : undefined;
    const pages = pv === undefined ? undefined : this.pages(pv, m.pages!);
    if (nodeIds || pages) {
      const target = evDocs.length ? evDocs : [this.fallbackDoc(q)].filter((d): d is string => d !== undefined);
      const ref = (m.nodeIds && nodeIds ? m.nodeIds : m.pages)!;
      if (target.length === 0) this.fail(ref, nodeIds ? 'nodeIds' : 'pages', 'gold nodes/pages need a document: map evidenceDocId or docIds, or set defaultDocId');
      if (target.length > 1) this.fail(ref, nodeIds ? 'nodeIds' : 'pages', `gold nodes/pages are ambiguous across ${target.length} evidence documents; use evidenceItems`);
      items.push({ docId: target[0], ...(nodeIds ? { nodeIds } : {}), ...(pages ? { pages } : {}) });
    }
    // Documents named without nodes/pages still count as gold documents (merged with the above).
    for (const d of evDocs) items.push({ docId: d });
    return mergeEvidence(items);
  }

  /** Parks gold title paths for loadBenchmarkData to resolve against the corpus. */
  titlePaths(q: Question): void {
    const ref = this.m.nodeTitlePath!;
    const v = this.get(ref);
    if (v === undefined) return;
    const sep = this.m.titlePathSeparator;
    const raw = this.strings(v, ref, 'nodeTitlePath', undefined, 'a title path or a list of them');
    const paths = raw.map((p) => p.split(sep).map((t) => t.trim()).filter((t) => t !== '')).filter((p) => p.length > 0);
    if (!paths.length) return;
    const evDocs = (q.evidence ?? []).map((e) => e.docId);
    const docId = evDocs.length === 1 ? evDocs[0] : this.fallbackDoc(q);
    const where = `${this.file}${this.rec.line !== undefined ? `:${this.rec.line}` : ''} (question ${q.id})`;
    pendingTitlePaths.set(q, { ...(docId !== undefined ? { docId } : {}), paths, where });
  }

  tags(): string[] {
    const out: string[] = [];
    for (const ref of this.tagRefs) {
      const v = this.get(ref);
      if (v === undefined) continue;
      for (const t of this.strings(v, ref, 'tags', this.m.listSeparator, 'a string or array of strings')) {
        out.push(this.m.tagFormat === 'field=value' ? `${ref}=${t}` : t);
      }
    }
    return dedupe(out);
  }
}

/**
 * `xs` without repeats, first occurrences in order (SameValueZero, as a Set): `xs` itself when it
 * has none, as most lists of a record do (a few values each), else a new array.
 */
function dedupe<T>(xs: T[]): T[] {
  if (xs.length > 16) return [...new Set(xs)];
  for (let i = 1; i < xs.length; i++) {
    for (let j = 0; j < i; j++) if (xs[i] === xs[j] || (xs[i] !== xs[i] && xs[j] !== xs[j])) return [...new Set(xs)];
  }
  return xs;
}

/** A document's first evidence entry: its node ids and pages without repeats. */
function firstEntry(it: GoldEvidence): GoldEvidence {
  const e: GoldEvidence = { docId: it.docId };
  if (it.nodeIds) e.nodeIds = dedupe(it.nodeIds);
  if (it.pages) e.pages = dedupe(it.pages);
  return e;
}

/** One evidence entry per document, node ids and pages united in first-seen order. */
export function mergeEvidence(items: GoldEvidence[]): GoldEvidence[] {
  if (items.length === 1) return [firstEntry(items[0]!)];
  const byDoc = new Map<string, GoldEvidence>();
  for (const it of items) {
    const cur = byDoc.get(it.docId);
    if (!cur) {
      byDoc.set(it.docId, firstEntry(it));
      continue;
    }
    if (it.nodeIds) cur.nodeIds = dedupe([...(cur.nodeIds ?? []), ...it.nodeIds]);
    if (it.pages) cur.pages = dedupe([...(cur.pages ?? []), ...it.pages]);
  }
  return [...byDoc.values()];
}

/** How many records were read, filtered and skipped, with the first skipped ones as warnings. */
export function questionSetNotes(set: QuestionSet, file: string, warnings: string[], shown = 5): string[] {
  const notes: string[] = [];
  const name = path.basename(file);
  if (set.filtered || set.skipped.length) {
    notes.push(
      `${name}: ${set.read} records read, ${set.filtered} left out by dataset.filter, ${set.skipped.length} invalid skipped, ${set.questions.length} questions`,
    );
  }
  if (set.skipped.length) {
    const first = set.skipped.slice(0, shown).map((e) => e.message);
    const more = set.skipped.length > shown ? `; … ${set.skipped.length - shown} more` : '';
    warnings.push(`skipped ${set.skipped.length} of ${set.read} invalid records (onInvalid: skip): ${first.join('; ')}${more}`);
  }
  return notes;
}

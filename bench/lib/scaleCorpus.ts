// A synthetic Markdown corpus of any size for bench/scale.ts, written deterministically: the same
// (documents, seed) always gives the same bytes. Every document is distinct (its own words, its
// own facts), so nothing is byte-identical to anything else and no loader can merge copies; the
// corpus at ×4 is the corpus at ×1 plus three times as many new documents.
//
// A document reads like a manual page: a level-1 title, sections and subsections, paragraphs of
// words drawn with a Zipf-like skew from a made-up vocabulary (function words mixed in, as in
// prose), and in each subsection one fact ("The rated torque of the velmar coupling is 4521 Nm.")
// that a question asks for. Questions go to a CSV (Question, Answer, Document) as aws-docs does.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from '../../harness/run/random.ts';

const random = mulberry32;

const SYLLABLES = ['ka', 'ven', 'lor', 'mi', 'tra', 'sol', 'dun', 'ese', 'quor', 'bal', 'thi', 'rem', 'os', 'pel', 'gar', 'ny', 'cal', 'fen', 'ud', 'zor', 'ite', 'mar', 'wen', 'sa'];
const FUNCTION_WORDS = ['the', 'of', 'and', 'to', 'a', 'in', 'is', 'that', 'for', 'it', 'as', 'with', 'on', 'be', 'by', 'this', 'are', 'or', 'from', 'at', 'when', 'which', 'each', 'not'];
const PARAMS = ['rated torque', 'service interval', 'maximum load', 'operating voltage', 'warm-up time', 'retention period', 'flow rate', 'cut-off pressure'];
const UNITS = ['Nm', 'hours', 'kg', 'V', 'seconds', 'days', 'litres per minute', 'kPa'];

/** The made-up vocabulary: distinct words of two or three syllables, in a fixed order. */
function vocabulary(size: number): string[] {
  const words = new Set<string>();
  const rnd = random(7);
  while (words.size < size) {
    const n = 2 + Math.floor(rnd() * 2);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rnd() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

export interface ScaleCorpus {
  docs: number;
  /** Bytes of Markdown written. */
  bytes: number;
  questions: number;
}

export interface ScaleCorpusOptions {
  /** Documents to write. */
  docs: number;
  /** Questions to write (at most one per subsection of the corpus); spread evenly over the documents. */
  questions: number;
  sections?: number;
  subsections?: number;
  /** Paragraphs per subsection. */
  paragraphs?: number;
  /** Words per paragraph. */
  words?: number;
}

/**
 * Writes `docs/doc-00001.md` … and `questions.csv` under `dir`. Document k is the same whatever
 * the corpus size: the ×1 corpus is a prefix of the ×4 one.
 */
export function writeScaleCorpus(dir: string, opts: ScaleCorpusOptions): ScaleCorpus {
  const sections = opts.sections ?? 5;
  const subsections = opts.subsections ?? 3;
  const paragraphs = opts.paragraphs ?? 2;
  const wordsPer = opts.words ?? 70;
  const vocab = vocabulary(4000);
  // Zipf-like weights over the vocabulary (1 / rank), as a cumulative table.
  const cumulative = new Float64Array(vocab.length);
  let total = 0;
  for (let i = 0; i < vocab.length; i++) cumulative[i] = total += 1 / (i + 1);
  const pick = (rnd: () => number): string => {
    const x = rnd() * total;
    let lo = 0;
    let hi = vocab.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return vocab[lo]!;
  };
  const title = (rnd: () => number, n: number) =>
    Array.from({ length: n }, () => {
      const w = pick(rnd);
      return w[0]!.toUpperCase() + w.slice(1);
    }).join(' ');
  mkdirSync(join(dir, 'docs'), { recursive: true });
  const rows: string[] = ['Question,Answer,Document'];
  const perDoc = sections * subsections;
  // Questions spread evenly: every `step`-th subsection of the corpus has one.
  const step = Math.max(1, Math.floor((opts.docs * perDoc) / Math.max(1, opts.questions)));
  let bytes = 0;
  for (let d = 0; d < opts.docs; d++) {
    const rnd = random(1000 + d);
    const docId = `doc-${String(d + 1).padStart(5, '0')}`;
    const lines: string[] = [`# ${title(rnd, 3)} Guide ${d + 1}`, ''];
    lines.push(`This guide ${d + 1} describes the ${pick(rnd)} ${pick(rnd)} and how to keep it running.`, '');
    for (let s = 0; s < sections; s++) {
      lines.push(`## ${title(rnd, 2)}`, '');
      for (let t = 0; t < subsections; t++) {
        lines.push(`### ${title(rnd, 2)}`, '');
        // The fact: a component named by two corpus words and the document's number.
        const component = `${pick(rnd)} ${pick(rnd)} ${d + 1}-${s + 1}${t + 1}`;
        const p = Math.floor(rnd() * PARAMS.length);
        const value = `${10 + Math.floor(rnd() * 9990)} ${UNITS[p]}`;
        for (let k = 0; k < paragraphs; k++) {
          const words: string[] = [];
          for (let w = 0; w < wordsPer; w++) words.push(rnd() < 0.4 ? FUNCTION_WORDS[Math.floor(rnd() * FUNCTION_WORDS.length)]! : pick(rnd));
          let text = words.join(' ');
          text = text[0]!.toUpperCase() + text.slice(1) + '.';
          if (k === 0) text += ` The ${PARAMS[p]} of the ${component} unit is ${value}.`;
          lines.push(text, '');
        }
        const slot = d * perDoc + s * subsections + t;
        if (slot % step === 0 && rows.length - 1 < opts.questions) rows.push(`What is the ${PARAMS[p]} of the ${component} unit?,${value},${docId}`);
      }
    }
    const md = lines.join('\n');
    bytes += Buffer.byteLength(md);
    writeFileSync(join(dir, 'docs', `${docId}.md`), md);
  }
  writeFileSync(join(dir, 'questions.csv'), rows.join('\n') + '\n');
  return { docs: opts.docs, bytes, questions: rows.length - 1 };
}

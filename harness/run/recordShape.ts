// What a line of records.jsonl must be before anything reads it as a record: every reader
// (summaries, reports, compare, gate, merge, resume) goes through RunStore.forEachRecord, which
// checks each line here and stops at the first that is not a record, naming its line (exit 2).
// Without this, `{"a":1}` became a phantom strategy row and `"calls": "x"` a crash with a stack.
//
// A record must say which task it is (strategy, questionId, repeat); every other field treebench
// reads must have its type when present (older records lack some, e.g. embedTokens). JSON nested
// deeper than MAX_RECORD_DEPTH is refused too: no record is, and writing one back out
// (merge, rejudge) would overflow the stack.
/** Nesting allowed in a record (a trace step or a call log is a few levels deep). */
export const MAX_RECORD_DEPTH = 64;

const NUMBERS = ['calls', 'embedCalls', 'inputTokens', 'outputTokens', 'embedTokens', 'latencyMs', 'queueMs', 'nodesVisited', 'nodesOpened', 'evidenceTokens', 'parseFailures', 'valueFallbacks'] as const;
/** Numbers that may be null: a cost is null (n/a) when the model is unpriced. */
const NULLABLE_NUMBERS = ['costUsd', 'cachedCostUsd', 'cachedCalls', 'cachedLatencyMs'] as const;
const STRINGS = ['runId', 'question', 'answer', 'finishedAt', 'stopReason'] as const;
const ARRAYS = ['evidence', 'trace', 'callLog'] as const;
const SCORE_FIELDS = ['exactMatch', 'f1', 'numericMatch', 'yesNo', 'choice', 'correct'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const describe = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'string' ? `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}` : `${typeof v} ${JSON.stringify(v)?.slice(0, 40)}`);

/**
 * Depth of the JSON text `line`, measured on the text (strings skipped), stopping once it passes
 * `limit`: a deep line is refused before anything walks it.
 */
export function jsonTextDepth(line: string, limit: number): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 34) {
      // a string: skip to its closing quote
      for (i++; i < line.length; i++) {
        const d = line.charCodeAt(i);
        if (d === 92) i++;
        else if (d === 34) break;
      }
    } else if (c === 123 || c === 91) {
      if (++depth > max && (max = depth) > limit) return max;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/** Why a parsed line is not a record (null when it is one). */
export function recordProblem(r: unknown): string | null {
  if (!isObject(r)) return `expected a record (a JSON object), got ${describe(r)}`;
  if (typeof r.strategy !== 'string' || !r.strategy) return r.strategy === undefined ? 'no "strategy" field' : `"strategy" is ${describe(r.strategy)}, expected the strategy id`;
  if (typeof r.questionId !== 'string' || !r.questionId) return r.questionId === undefined ? 'no "questionId" field' : `"questionId" is ${describe(r.questionId)}, expected the question id`;
  if (!Number.isInteger(r.repeat) || (r.repeat as number) < 0) return r.repeat === undefined ? 'no "repeat" field' : `"repeat" is ${describe(r.repeat)}, expected an integer >= 0`;
  for (const k of STRINGS) if (r[k] !== undefined && typeof r[k] !== 'string') return `"${k}" is ${describe(r[k])}, expected a string`;
  for (const k of NUMBERS) if (r[k] !== undefined && (typeof r[k] !== 'number' || !Number.isFinite(r[k]))) return `"${k}" is ${describe(r[k])}, expected a number`;
  for (const k of NULLABLE_NUMBERS) if (r[k] !== undefined && r[k] !== null && (typeof r[k] !== 'number' || !Number.isFinite(r[k]))) return `"${k}" is ${describe(r[k])}, expected a number or null`;
  for (const k of ARRAYS) if (r[k] !== undefined && !Array.isArray(r[k])) return `"${k}" is ${describe(r[k])}, expected an array`;
  if (r.error !== undefined && r.error !== null && typeof r.error !== 'string') return `"error" is ${describe(r.error)}, expected a string or null`;
  if (r.gold !== undefined && !(Array.isArray(r.gold) && r.gold.every((g) => typeof g === 'string'))) return `"gold" is ${describe(r.gold)}, expected a list of strings`;
  if (r.tags !== undefined && !(Array.isArray(r.tags) && r.tags.every((g) => typeof g === 'string'))) return `"tags" is ${describe(r.tags)}, expected a list of strings`;
  if (r.scores !== undefined && r.scores !== null) {
    if (!isObject(r.scores)) return `"scores" is ${describe(r.scores)}, expected an object or null`;
    for (const k of SCORE_FIELDS) {
      const v = r.scores[k];
      if (v !== undefined && v !== null && (typeof v !== 'number' || !Number.isFinite(v))) return `"scores.${k}" is ${describe(v)}, expected a number`;
    }
  }
  for (const k of ['retrieval', 'judge'] as const) if (r[k] !== undefined && r[k] !== null && !isObject(r[k])) return `"${k}" is ${describe(r[k])}, expected an object`;
  if (r.custom !== undefined) {
    if (!isObject(r.custom)) return `"custom" is ${describe(r.custom)}, expected an object of scorer values`;
    for (const [k, v] of Object.entries(r.custom)) {
      if (v !== null && (typeof v !== 'number' || !Number.isFinite(v))) return `"custom.${k}" is ${describe(v)}, expected a number or null`;
    }
  }
  return null;
}

// Robust parsing of model answers: models wrap JSON in code fences, add prose around it, or
// trail commas. Parse results are envelopes (errors are data), never exceptions.

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** Finds the first balanced {...} object in text, respecting strings and escapes. */
function firstObject(text: string): string | null {
  const start = text.indexOf('{');
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}

function tryParse(candidate: string): unknown {
  try {
    return JSON.parse(candidate);
  } catch {
    // Trailing commas are the most common near-miss from small local models.
    return JSON.parse(candidate.replace(/,\s*([}\]])/g, '$1'));
  }
}

/** Extracts a JSON object from a model reply: bare, fenced, or embedded in prose. */
export function parseJsonObject(text: string): Parsed<Record<string, unknown>> {
  const candidates: string[] = [];
  const trimmed = text.trim();
  candidates.push(trimmed);
  for (const m of trimmed.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/g)) candidates.push(m[1].trim());
  const obj = firstObject(trimmed);
  if (obj) candidates.push(obj);
  let lastError = 'no JSON object found in the reply';
  for (const c of candidates) {
    if (!c.startsWith('{')) continue;
    try {
      const value = tryParse(c);
      if (value && typeof value === 'object' && !Array.isArray(value)) return { ok: true, value: value as Record<string, unknown> };
      lastError = 'the reply is JSON but not an object';
    } catch (err) {
      lastError = `invalid JSON: ${(err as Error).message}`;
    }
  }
  return { ok: false, error: lastError };
}

/** Coerces a model's list field: accepts an array of strings/numbers, or a comma-separated string. */
export function asStringList(value: unknown): string[] | null {
  if (Array.isArray(value)) return value.filter((v) => typeof v === 'string' || typeof v === 'number').map((v) => String(v).trim());
  if (typeof value === 'string') return value.split(',').map((s) => s.trim()).filter(Boolean);
  return null;
}

// Lists written into a single field as text: `"[3, 5]"` (JSON) or `"['Pure-text (Plain-text)', 'Table']"`
// (a Python repr, as pandas exports write them). Datasets often store lists this way in CSV cells
// and even in JSON; the mapping reads them as the lists they are.
//
// Only a whole value that starts with `[` and ends with `]` is a candidate, and it must parse
// completely as a list of strings, numbers, booleans or nulls; anything else stays a string.

/** The list a stringified list stands for, or undefined when `s` is not one. */
export function parseListString(s: string): unknown[] | undefined {
  const t = s.trim();
  if (!t.startsWith('[') || !t.endsWith(']')) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    if (Array.isArray(v) && v.every(isScalar)) return v;
  } catch {
    // not JSON: try a Python list literal
  }
  return parsePythonList(t);
}

const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

const PY_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0' };

/** `['a', "b", 3, None, True]`; undefined when the text is anything else. */
function parsePythonList(t: string): unknown[] | undefined {
  let i = 1;
  const out: unknown[] = [];
  const ws = () => {
    while (i < t.length && /\s/.test(t[i])) i++;
  };
  ws();
  if (t[i] === ']') return i === t.length - 1 ? [] : undefined;
  for (;;) {
    ws();
    const c = t[i];
    if (c === "'" || c === '"') {
      let s = '';
      i++;
      for (;;) {
        if (i >= t.length) return undefined;
        const ch = t[i];
        if (ch === c) break;
        if (ch === '\\') {
          const next = t[i + 1];
          s += next !== undefined && next in PY_ESCAPES ? PY_ESCAPES[next] : `\\${next ?? ''}`;
          i += 2;
          continue;
        }
        s += ch;
        i++;
      }
      i++;
      out.push(s);
    } else {
      const m = /^(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|None|True|False|null|true|false)/.exec(t.slice(i));
      if (!m) return undefined;
      const w = m[1];
      out.push(w === 'None' || w === 'null' ? null : w === 'True' || w === 'true' ? true : w === 'False' || w === 'false' ? false : Number(w));
      i += w.length;
    }
    ws();
    if (t[i] === ',') {
      i++;
      ws();
      if (t[i] === ']' && i === t.length - 1) return out; // trailing comma
      continue;
    }
    if (t[i] === ']' && i === t.length - 1) return out;
    return undefined;
  }
}

/** A value with a stringified list replaced by the list; anything else unchanged. */
export function unstringifyList(v: unknown): unknown {
  return typeof v === 'string' ? (parseListString(v) ?? v) : v;
}

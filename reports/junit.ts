// JUnit XML, the format CI systems (GitHub Actions test reporters, GitLab, Jenkins, Azure)
// read: <testsuites> → <testsuite> → <testcase> with an optional <failure>, <skipped> or
// <system-out>. Counts on every suite and on the root, as the Ant/Surefire schema has them.
// Escaping: the five XML entities everywhere; CR, LF and TAB as character references inside
// attributes (a parser would fold raw ones into spaces); characters XML 1.0 forbids (control
// characters, lone surrogates, U+FFFE/U+FFFF) are replaced with U+FFFD so the file always parses.

export interface JunitCase {
  name: string;
  classname: string;
  /** Seconds. */
  time?: number;
  failure?: { message: string; type?: string; body?: string };
  skipped?: { message: string };
  systemOut?: string;
}

export interface JunitSuite {
  name: string;
  cases: JunitCase[];
  timestamp?: string;
  properties?: Record<string, string>;
}

// XML 1.0 Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
const INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes text for XML element content. */
export function xmlText(text: string): string {
  return text.replace(INVALID, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes text for a double-quoted XML attribute value. */
export function xmlAttr(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

const attrs = (pairs: Record<string, string | number | undefined>) =>
  Object.entries(pairs)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`)
    .join('');

const seconds = (t: number | undefined) => (t ?? 0).toFixed(3);

function counts(cases: JunitCase[]) {
  return {
    tests: cases.length,
    failures: cases.filter((c) => c.failure).length,
    errors: 0,
    skipped: cases.filter((c) => !c.failure && c.skipped).length,
    time: cases.reduce((s, c) => s + (c.time ?? 0), 0),
  };
}

export function renderJunit(suites: readonly JunitSuite[], name = 'treebench'): string {
  const all = counts(suites.flatMap((s) => s.cases));
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name, tests: all.tests, failures: all.failures, errors: all.errors, skipped: all.skipped, time: seconds(all.time) })}>`,
  ];
  suites.forEach((suite, id) => {
    const c = counts(suite.cases);
    out.push(
      `  <testsuite${attrs({ name: suite.name, id, tests: c.tests, failures: c.failures, errors: c.errors, skipped: c.skipped, time: seconds(c.time), timestamp: suite.timestamp })}>`,
    );
    const props = Object.entries(suite.properties ?? {});
    if (props.length) {
      out.push('    <properties>');
      for (const [k, v] of props) out.push(`      <property${attrs({ name: k, value: v })}/>`);
      out.push('    </properties>');
    }
    for (const tc of suite.cases) {
      const open = `    <testcase${attrs({ name: tc.name, classname: tc.classname, time: seconds(tc.time) })}`;
      const inner: string[] = [];
      if (tc.failure) {
        inner.push(`      <failure${attrs({ message: tc.failure.message, type: tc.failure.type ?? 'failure' })}>${xmlText(tc.failure.body ?? tc.failure.message)}</failure>`);
      } else if (tc.skipped) {
        inner.push(`      <skipped${attrs({ message: tc.skipped.message })}/>`);
      }
      if (tc.systemOut) inner.push(`      <system-out>${xmlText(tc.systemOut)}</system-out>`);
      out.push(inner.length ? `${open}>\n${inner.join('\n')}\n    </testcase>` : `${open}/>`);
    }
    out.push('  </testsuite>');
  });
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}

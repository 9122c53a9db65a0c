import { describe, expect, it } from 'vitest';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { renderJunit, xmlAttr, xmlText, type JunitSuite } from '../../reports/junit.ts';
import { gateJunitSuites, renderGateJunit, renderGateMarkdown } from '../../reports/gate.ts';
import { buildGate } from '../../cli/handlers/gate.ts';
import { manifest, outcomes, records, tempDir, writeRun } from '../harness/analysis/compare/runFixtures.ts';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  trimValues: false,
  isArray: (name, _path, _leaf, isAttribute) => !isAttribute && ['testsuite', 'testcase', 'property', 'failure', 'skipped'].includes(name),
});

interface Parsed {
  testsuites: {
    name: string;
    tests: string;
    failures: string;
    skipped: string;
    errors: string;
    testsuite: Array<{
      name: string;
      tests: string;
      failures: string;
      skipped: string;
      testcase: Array<{ name: string; classname: string; failure?: Array<{ message: string; '#text'?: string }>; skipped?: Array<{ message: string }>; 'system-out'?: string }>;
    }>;
  };
}

function parse(xml: string): Parsed {
  expect(XMLValidator.validate(xml)).toBe(true);
  return parser.parse(xml) as Parsed;
}

const NASTY = `a <b> & "c" 'd' \u0001bell\ttab\nline ]]> é 🚀 \uD800lone`;

describe('renderJunit', () => {
  const suites: JunitSuite[] = [
    {
      name: 'treebench gate: vector',
      properties: { baseline: 'run & <1>' },
      cases: [
        { name: 'accuracy maxDrop 0.02', classname: 'treebench.gate.vector', failure: { message: NASTY, type: 'regression', body: `detail ${NASTY}` } },
        { name: 'f1 maxDrop 0.02', classname: 'treebench.gate.vector', systemOut: 'ok' },
        { name: 'costPerQuestion maxIncrease 10%', classname: 'treebench.gate.vector', skipped: { message: 'unpriced' } },
      ],
    },
    { name: 'treebench gate: tree', cases: [{ name: `weird "name" <x>`, classname: 'treebench.gate.tree' }] },
  ];

  it('parses with a real XML reader and has the JUnit structure and counts', () => {
    const doc = parse(renderJunit(suites, 'treebench gate'));
    const root = doc.testsuites;
    expect(root).toMatchObject({ name: 'treebench gate', tests: '4', failures: '1', skipped: '1', errors: '0' });
    expect(root.testsuite).toHaveLength(2);
    expect(root.testsuite[0]).toMatchObject({ name: 'treebench gate: vector', tests: '3', failures: '1', skipped: '1' });
    expect(root.testsuite[0]!.testcase).toHaveLength(3);
    expect(root.testsuite[0]!.testcase.filter((c) => c.failure)).toHaveLength(1);
    expect(root.testsuite[0]!.testcase.filter((c) => c.skipped)).toHaveLength(1);
    expect(root.testsuite[1]!.testcase[0]!.name).toBe('weird "name" <x>');
  });

  it('escapes text and attributes so values round-trip (invalid characters replaced)', () => {
    const doc = parse(renderJunit(suites));
    const failure = doc.testsuites.testsuite[0]!.testcase[0]!.failure![0]!;
    const expected = NASTY.replace('\u0001', '\uFFFD').replace('\uD800', '\uFFFD');
    // fast-xml-parser decodes the five entities; numeric references (&#10; ...) are left for us to check.
    const decode = (s: string) => s.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)));
    expect(decode(failure.message)).toBe(expected);
    expect(decode(failure['#text']!)).toBe(`detail ${expected}`);
  });

  it('escape helpers', () => {
    expect(xmlText('a<b>&c')).toBe('a&lt;b&gt;&amp;c');
    expect(xmlAttr(`"x"\n'y'`)).toBe('&quot;x&quot;&#10;&apos;y&apos;');
    expect(xmlText('\u0000\u0008ok\uFFFF')).toBe('\uFFFD\uFFFDok\uFFFD');
    expect(xmlText('🚀')).toBe('🚀');
  });
});

describe('gate JUnit and Markdown from a real gate evaluation', () => {
  function gateReport() {
    const root = tempDir();
    const m = manifest();
    const a = writeRun(join(root, 'a'), m, [...records('run-a', 'vector', outcomes(60, 42)), ...records('run-a', 'tree', outcomes(60, 30))]);
    // vector loses 12 answers (significant); tree unchanged.
    const b = writeRun(join(root, 'b'), { ...m, runId: 'run-b' }, [...records('run-b', 'vector', outcomes(60, 30)), ...records('run-b', 'tree', outcomes(60, 30))]);
    const rules = join(root, 'gates.yaml');
    writeFileSync(rules, 'rules:\n  accuracy: { maxDrop: 0.02 }\n  costPerQuestion: { maxIncrease: "10%" }\n  evidenceRecall: { maxDrop: 0.05 }\n');
    return buildGate({ baseline: a, candidate: b, rules });
  }

  it('one suite per strategy, one case per rule, the failure names metric, drop, interval and p', () => {
    const report = gateReport();
    const doc = parse(renderGateJunit(report));
    expect(doc.testsuites.tests).toBe('8'); // three rules and the coverage rule, per strategy
    expect(doc.testsuites.failures).toBe('2'); // vector accuracy and vector evidence recall
    const vector = doc.testsuites.testsuite.find((s) => s.name.endsWith('vector'))!;
    expect(vector.testcase.map((c) => c.name)).toEqual(['coverage', 'accuracy maxDrop 0.02', 'costPerQuestion maxIncrease 10%', 'evidenceRecall maxDrop 0.05']);
    const msg = vector.testcase[1]!.failure![0]!.message;
    expect(msg).toMatch(/^accuracy dropped 0\.200 \(95% CI \[0\.\d{3}, 0\.\d{3}\]\) p[=<]0\.\d+ \(Holm\) > maxDrop 0\.02$/);
    expect(gateJunitSuites(report)).toHaveLength(2);
  });

  it('the Markdown summary renders as a table: every row has as many cells as the header', () => {
    const md = renderGateMarkdown(gateReport());
    const rows = md.split('\n').filter((l) => l.startsWith('|'));
    const cells = (row: string) => row.trim().split(/(?<!\\)\|/).slice(1, -1);
    expect(rows.length).toBe(2 + 8);
    const width = cells(rows[0]!).length;
    expect(width).toBe(8);
    for (const r of rows) expect(cells(r)).toHaveLength(width);
    expect(cells(rows[1]!).every((c) => /^\s*-{3,}:?\s*$/.test(c))).toBe(true);
    expect(md).toContain('❌');
    expect(md).toMatch(/FAILED: 2 regressions/);
  });
});

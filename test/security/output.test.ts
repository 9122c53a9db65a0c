// Text from datasets, configs and models is data: whatever escapes it carries (OSC 0 window title,
// OSC 8 hyperlink, CSI, BEL, a C1 CSI, a right-to-left override), no command prints them raw and
// no report file holds them raw. One poisoned dataset goes through every command that shows data.
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { cli, tmp } from '../resilience/helpers.ts';
import { forDocument, forJsonText, forTerminal, forTerminalStream } from '../../harness/text/terminal.ts';

/** Every way text can act on a terminal or a reader, in one string. */
const POISON = '\u001b]0;pwned\u0007 \u001b]8;;http://evil.example\u001b\\click\u001b]8;;\u001b\\ \u001b[2J\u001b[31m red \u009b1A \u0085 \u202etxt.exe\u202c bell\u0007';
/** What must not survive raw anywhere a reader sees it (a CR is allowed only in CRLF). */
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/;

function rawAt(text: string): string | null {
  const m = RAW.exec(text);
  return m ? JSON.stringify(text.slice(Math.max(0, m.index - 30), m.index + 10)) : null;
}

/** The bundled sample with poison in a document title, a node title and text, a question, and the names. */
function poisonedSample(dir: string): string {
  const data = join(dir, 'data');
  cpSync(new URL('../../datasets/sample', import.meta.url).pathname, data, { recursive: true });
  const docFile = join(data, 'corpus', 'nwl-handbook.json');
  const doc = JSON.parse(readFileSync(docFile, 'utf8'));
  doc.title = `Handbook ${POISON}`;
  doc.nodes[0].title = `${doc.nodes[0].title} ${POISON}`;
  const visit = (nodes: Array<{ text?: string; children?: unknown[] }>) => {
    for (const n of nodes) {
      if (n.text) n.text = `${n.text} ${POISON}`;
      visit((n.children ?? []) as typeof nodes);
    }
  };
  visit(doc.nodes);
  writeFileSync(docFile, JSON.stringify(doc));
  const qFile = join(data, 'questions.jsonl');
  const lines = readFileSync(qFile, 'utf8').trim().split('\n').slice(0, 6).map((l) => JSON.parse(l));
  lines[0].question = `${lines[0].question} ${POISON}`;
  lines[0].id = `sample-001${'\u202e'}`;
  writeFileSync(qFile, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const config = {
    name: `poison-${'\u001b]0;t\u0007'}`,
    dataset: { format: 'sample', path: data, name: `dataset ${POISON}` },
    model: { provider: 'offline', model: `m${'\u001b]0;x\u0007\u202e'}` },
    strategies: ['node-list', 'vector'],
    reports: ['md', 'csv', 'json', 'html'],
    run: { outDir: join(dir, 'runs') },
  };
  const path = join(dir, 'poison.yaml');
  writeFileSync(path, stringify(config));
  return path;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map((f) => join(dir, String(f)))
    .filter((f) => statSync(f).isFile());
}

describe('no escape from data reaches a terminal or a report raw', () => {
  it('run, report, datasets inspect, trace, compare, gate, baseline, export, history: stdout, stderr and every file written', async () => {
    const dir = tmp();
    const config = poisonedSample(dir);
    const outputs: Array<[string, string]> = [];
    const drive = async (...argv: string[]) => {
      const r = await cli(...argv);
      outputs.push([`${argv.join(' ')} (stdout)`, r.out], [`${argv.join(' ')} (stderr)`, r.err]);
      return r;
    };
    expect((await drive('run', config, '--run-id', 'a', '--format', 'md')).code).toBe(0);
    expect((await drive('run', config, '--run-id', 'b')).code).toBe(0);
    const a = join(dir, 'runs', 'a');
    const b = join(dir, 'runs', 'b');
    for (const format of ['table', 'md', 'csv', 'json', 'html']) expect((await drive('report', a, '--format', format)).code).toBe(0);
    for (const format of ['text', 'json']) expect((await drive('datasets', 'inspect', config, '--format', format)).code).toBe(0);
    expect((await drive('trace', a, '--question', 'sample-001\u202e')).code).toBe(0);
    expect((await drive('compare', a, b, '--format', 'md', '--out', join(dir, 'compare.md'))).code).toBe(0);
    expect((await drive('compare', a, b)).code).toBe(0);
    expect((await drive('gate', '--baseline', a, '--candidate', b, '--summary-md', join(dir, 'gate.md'), '--junit', join(dir, 'gate.xml'))).code).toBe(0);
    expect((await drive('baseline', 'save', a, '--name', 'main', '--dir', join(dir, 'baselines'))).code).toBe(0);
    expect((await drive('baseline', 'list', '--dir', join(dir, 'baselines'))).code).toBe(0);
    expect((await drive('export', a, '--strategy', 'vector', '--trec', join(dir, 'run.trec'), '--qrels', join(dir, 'qrels.txt'))).code).toBe(0);
    expect((await drive('history', join(dir, 'runs'))).code).toBe(0);

    // The poison did reach the data (answers quote node text), so the checks below check something.
    expect(readFileSync(join(a, 'records.jsonl'), 'utf8')).toContain('\\u001b]0;pwned');
    for (const [what, text] of outputs) expect(rawAt(text), what).toBeNull();
    const written = filesUnder(dir).filter((f) => !f.startsWith(join(dir, 'data')) && !f.endsWith('poison.yaml'));
    expect(written.map((f) => f.slice(dir.length + 1))).toEqual(expect.arrayContaining(['compare.md', 'gate.md', 'gate.xml', 'runs/a/report.md', 'runs/a/report.csv', 'runs/a/report.html', 'runs/a/records.jsonl']));
    for (const f of written) expect(rawAt(readFileSync(f, 'utf8')), f).toBeNull();
    // JSON stays exact: the escaped text parses back to the original characters.
    const record = readFileSync(join(a, 'records.jsonl'), 'utf8').split('\n').map((l) => (l ? JSON.parse(l) : null)).find((r) => r?.question.includes('pwned'));
    expect(record.question).toContain(POISON);
  }, 120_000);

  it('keeps the styling treebench writes on a terminal, and nothing a dataset brought', () => {
    const own = `\r\u001b[Krunning: 3/9\u001b[31mFAIL\u001b[39m`;
    expect(forTerminalStream(own, true)).toBe(own);
    expect(forTerminalStream(own, false)).toBe('\uFFFD\uFFFD[Krunning: 3/9\uFFFD[31mFAIL\uFFFD[39m');
    expect(forTerminalStream(`a\u001b]8;;http://x\u001b\\b \u009b2J \u202ec`, true)).toBe('a\uFFFD]8;;http://x\uFFFD\\b \uFFFD2J \uFFFDc');
  });

  it('documents keep CRLF and text; JSON keeps the exact value', () => {
    expect(forDocument('a,b\r\nc\rd\u202e')).toBe('a,b\r\nc\uFFFDd\uFFFD');
    expect(forTerminal('x\u2066y\u2069 \u200fRTL mark stays')).toBe('x\uFFFDy\uFFFD \u200fRTL mark stays');
    const json = forJsonText(JSON.stringify({ s: `\u009b\u202e\u2028${POISON}` }));
    expect(rawAt(json)).toBeNull();
    expect(JSON.parse(json).s).toBe(`\u009b\u202e\u2028${POISON}`);
  });
});

describe('a report renderer used directly', () => {
  it('escapes data in Markdown cells, CSV fields and HTML text', async () => {
    const { escapeMarkdown } = await import('../../reports/markdown.ts');
    const { csvField } = await import('../../reports/csv.ts');
    const { esc } = await import('../../reports/html/escape.ts');
    for (const out of [escapeMarkdown(POISON), csvField(POISON), esc(POISON)]) expect(rawAt(out)).toBeNull();
    mkdirSync(tmp(), { recursive: true });
  });
});

// `treebench trace`: one record's search, printed as an indented path a person can follow.
import type { Corpus, RunRecord, TraceStep } from '../harness/types.ts';
import { indexDoc } from '../harness/trees/tree.ts';
import { headlineRecall } from '../harness/scoring/retrieval.ts';

const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);
// Control characters (escape sequences in dataset or model text) never reach the terminal.
// eslint-disable-next-line no-control-regex
const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').replace(/\s+/g, ' ').trim();

/** An agent step's tool call as one line: `search_sections("query": "…", …)`. */
export function toolCall(step: TraceStep): string {
  return `${step.tool}(${step.args ? oneLine(JSON.stringify(step.args)).replace(/^\{|\}$/g, '') : ''})`;
}

/** Looks up a node title for display; ids alone are hard to follow. */
function titleOf(corpus: Corpus | null, step: TraceStep): string | null {
  if (!corpus || !step.docId || !step.nodeId) return null;
  const doc = corpus.docs.find((d) => d.docId === step.docId);
  return doc ? indexDoc(doc).byId.get(step.nodeId)?.node.title ?? null : null;
}

export function formatTrace(record: RunRecord, corpus: Corpus | null, opts: { width?: number } = {}): string {
  const width = opts.width ?? 110;
  const lines: string[] = [];
  const s = record.scores;
  lines.push(`${record.questionId} · ${record.strategy} · repeat ${record.repeat}`);
  lines.push(`question  ${oneLine(record.question)}`);
  lines.push(`gold      ${clip(oneLine(record.gold.join(' | ')), width - 10)}`);
  lines.push(`answer    ${clip(oneLine(record.answer || '(none)'), width - 10)}`);
  const recall = headlineRecall(record.retrieval);
  lines.push(
    [
      s && (s.correct === null || s.correct === undefined) ? `correct n/a (rule: ${s.ungradable ?? 'ungradable'} gold)` : `correct ${s?.correct ? 'yes' : 'no'}`,
      `F1 ${s ? s.f1.toFixed(2) : '-'}`,
      `evidence recall ${recall === null ? '-' : recall.toFixed(2)}`,
      `calls ${record.calls}`,
      `tokens ${record.inputTokens + record.outputTokens}`,
      `nodes visited/opened ${record.nodesVisited}/${record.nodesOpened}`,
      record.budgetExhausted ? `budget "${record.budgetExhausted}" ran out` : null,
      record.stopReason ? `stop: ${record.stopReason}` : null,
      record.error ? `ERROR: ${record.error}` : null,
    ]
      .filter(Boolean)
      .join(' · '),
  );
  lines.push('');
  if (!record.trace.length) lines.push('(no trace steps)');
  for (const step of record.trace) {
    const indent = '  '.repeat(Math.max(0, step.depth ?? 0));
    const title = titleOf(corpus, step);
    const target = step.nodeId ? `${step.docId && corpus && corpus.docs.length > 1 ? `${step.docId}/` : ''}${step.nodeId}${title ? ` "${title}"` : ''}` : step.docId ?? '';
    const bits = [
      `${String(step.step).padStart(3)} ${indent}${step.action.padEnd(11)}`,
      target,
      `[${step.source}]`,
      step.score !== undefined ? `score ${Number(step.score.toFixed(3))}` : '',
      step.pages ? `pages ${step.pages[0]}-${step.pages[1]}` : '',
    ].filter(Boolean);
    if (step.tool) {
      // Agent steps: the call on its line, then why and what came back, indented below it.
      const call = toolCall(step);
      lines.push(clip([`${String(step.step).padStart(3)} ${indent}${call}`, title ? `"${title}"` : '', `[${step.source}]`].filter(Boolean).join(' '), width));
      const pad = ' '.repeat(5 + indent.length);
      if (step.reason) lines.push(clip(`${pad}why:    ${oneLine(step.reason)}`, width));
      if (step.result !== undefined) lines.push(clip(`${pad}result: ${oneLine(step.result)}`, width));
      continue;
    }
    let line = bits.join(' ');
    if (step.reason) line += ` — ${oneLine(step.reason)}`;
    lines.push(clip(line, width));
  }
  lines.push('');
  if (record.evidence.length) {
    lines.push('evidence (rank, node, title):');
    for (const e of record.evidence) lines.push(`  ${e.rank}. ${e.docId}/${e.nodeId}${e.title ? ` "${e.title}"` : ''}${e.pages ? ` pages ${e.pages[0]}-${e.pages[1]}` : ''}`);
  }
  return lines.join('\n');
}

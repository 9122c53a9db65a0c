// The LLM-judged groundedness (ragas-style faithfulness): the model splits the answer into its
// factual claims and says of each whether the evidence the strategy retrieved supports it. The
// score is supported claims / claims; an answer with no claim (an abstention, a bare "yes") has
// no score. The grader sees the question, the answer and the retrieved evidence — never the gold
// answer — through the LLM judge's own metered door (llm.ts).
import { z } from 'zod';
import { modelConfigSchema } from '../../models/providers/registry.ts';
import { parseJsonObject } from '../../protocol/jsonReply.ts';
import { redactSecrets } from '../../models/secrets.ts';
import type { ChatMessage, RecordGroundedness } from '../../types.ts';
import type { LlmJudge } from './llm.ts';

export const groundednessConfigSchema = modelConfigSchema.refine((c) => c.provider !== 'offline', {
  error: 'groundedness needs a real model (e.g. provider: openai); the offline reasoner does not grade answers',
  path: ['provider'],
});
export type GroundednessConfig = z.output<typeof groundednessConfigSchema>;

export interface GroundingItem {
  question: string;
  answer: string;
  /** The texts of the evidence the strategy retrieved, in rank order. */
  evidence: readonly string[];
}

/** Evidence beyond this many characters (in total) is cut: the grader's context is finite. */
export const MAX_EVIDENCE_CHARS = 24_000;
const MAX_TOKENS = 700;

const SYSTEM = [
  'You check whether an answer is supported by the retrieved context it was written from.',
  'Split the answer into its factual claims (short, self-contained statements). For each claim say whether the context supports it: supported means the context states it or it follows directly from the context; a claim the context does not mention, or contradicts, is not supported. Judge only against the context, not against what you know.',
  'An answer that declines to answer, or states no fact, has no claims.',
  'Reply with one JSON object and nothing else: {"claims": [{"claim": "<claim>", "supported": true or false}]}.',
].join('\n');

/** The chat messages for one grading; the inputs are a JSON payload, as every treebench prompt. */
export function groundingMessages(item: GroundingItem): ChatMessage[] {
  let budget = MAX_EVIDENCE_CHARS;
  const context: string[] = [];
  for (const e of item.evidence) {
    if (budget <= 0) break;
    context.push(e.length > budget ? `${e.slice(0, budget)} …` : e);
    budget -= e.length;
  }
  const payload = { task: 'judge.groundedness', question: item.question, answer: item.answer, context };
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `Check this answer against its context.\n\n${JSON.stringify(payload, null, 2)}` },
  ];
}

/** `{ claims }` from the grader's reply; null when it cannot be read. */
export function parseGrounding(text: string): Array<{ claim: string; supported: boolean }> | null {
  const parsed = parseJsonObject(text);
  if (!parsed.ok || !Array.isArray(parsed.value.claims)) return null;
  const out: Array<{ claim: string; supported: boolean }> = [];
  for (const c of parsed.value.claims as unknown[]) {
    if (!c || typeof c !== 'object') return null;
    const { claim, supported } = c as { claim?: unknown; supported?: unknown };
    const s = supported === true || supported === 'true' || supported === 'yes' ? true : supported === false || supported === 'false' || supported === 'no' ? false : null;
    if (s === null) return null;
    out.push({ claim: typeof claim === 'string' ? claim : '', supported: s });
  }
  return out;
}

/** Grades one answer's groundedness through the judge's door. */
export async function judgeGroundedness(judge: LlmJudge, item: GroundingItem): Promise<NonNullable<RecordGroundedness['judge']>> {
  const reply = await judge.ask(groundingMessages(item), 'judge.groundedness', MAX_TOKENS);
  const out: NonNullable<RecordGroundedness['judge']> = { score: null, claims: 0, supported: 0, model: judge.provider.id, calls: [reply.log] };
  if (reply.text === null) {
    out.error = reply.log.error;
    return out;
  }
  const claims = parseGrounding(reply.text);
  if (claims === null) {
    out.error = redactSecrets(`unreadable groundedness reply: ${reply.text.slice(0, 200)}`);
    return out;
  }
  out.claims = claims.length;
  out.supported = claims.filter((c) => c.supported).length;
  out.score = claims.length ? out.supported / claims.length : null;
  return out;
}

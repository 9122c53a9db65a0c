// Document choice from the dataset's document table (`docSelect: metadata`): no model call, no
// index. A question that says "Best Buy", "FY2023" and "Q2" names, in effect, a company, a period
// and a kind of filing; each document's catalogue fields (DocTree.metadata: company, period, type)
// are matched against those words:
//
//   score(doc) = 4 · company + 2 · period + 1 · type
//
// - company: 1 when the question holds the company's name as words (case, punctuation, "&"/"and"
//   and legal suffixes such as Inc or Corp ignored), or its initials joined as people write them
//   (Johnson & Johnson → J&J, JnJ); 0.7 when it holds only the name's first word written as a
//   name (capitalised as the company writes it) and distinctive (four letters or more, or all
//   capitals like MGM).
// - period: the years the question mentions (2022, FY2022, FY22, fiscal 2022, Q2'2023): 1 for the
//   latest of them (a filing reports its own year and the years before), 0.5 for another.
// - type: 10-K / annual → 10k; 10-Q / quarter / Q1–Q4 → 10q; 8-K → 8k; earnings → earnings.
//
// Documents scoring 0 are not ranked by this channel (it has nothing to say of them); documents
// without metadata never score. The ranking is what `fused` combines with value search.
import type { DocMetadata, DocTree } from '../../harness/types.ts';

export interface MetadataScore {
  docId: string;
  score: number;
  /** Which fields matched, for the trace. */
  matched: string[];
}

const LEGAL_SUFFIX = /\b(inc|incorporated|corp|corporation|co|company|ltd|limited|plc|group|holdings?|sa|ag|nv|llc)\b/g;

/** Lower case, `&` as "and", punctuation as spaces, single spaces. */
function words(text: string): string {
  return ` ${text.toLowerCase().replace(/&/g, ' and ').replace(/['’]s\b/g, '').replace(/[^a-z0-9]+/g, ' ').trim()} `;
}

function companyMatch(question: string, qWords: string, company: string): number {
  const name = words(company).replace(LEGAL_SUFFIX, ' ').replace(/\s+/g, ' ');
  const trimmed = name.trim();
  if (!trimmed) return 0;
  if (qWords.includes(` ${trimmed} `)) return 1;
  // Without spaces too: "BestBuy" for Best Buy.
  if (trimmed.includes(' ') && qWords.includes(` ${trimmed.replace(/ /g, '')} `)) return 1;
  const parts = trimmed.split(' ').filter((w) => w !== 'and');
  if (parts.length >= 2) {
    const initials = parts.map((w) => w[0]).join('');
    const forms = [initials, parts.map((w) => w[0]).join('&'), parts.map((w) => w[0]).join('n')];
    const raw = ` ${question.toLowerCase().replace(/[^a-z0-9&]+/g, ' ')} `;
    if (forms.some((f) => raw.includes(` ${f} `))) return 1;
  }
  // The first word alone, as a name: written as the company writes it (capitalised, so "the best"
  // is not Best Buy), and distinctive — four letters or more, or all capitals (MGM, 3M).
  const firstAsWritten = company.trim().split(/\s+/)[0]!.replace(/[^A-Za-z0-9]+$/, '');
  const distinctive = firstAsWritten.length >= 4 || /^[A-Z0-9]{2,}$/.test(firstAsWritten);
  const asName = /^[A-Z0-9]/.test(firstAsWritten) && new RegExp(`(^|[^A-Za-z0-9])${escapeRegExp(firstAsWritten)}(?![A-Za-z0-9])`).test(question);
  if (parts.length >= 2 && distinctive && asName) return 0.7;
  return 0;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Years a question mentions, four-digit (from "FY2022", "Q2'2023", "2022") or "FY22". */
export function mentionedYears(question: string): number[] {
  const years = new Set<number>();
  for (const m of question.matchAll(/(?<![0-9])((?:19|20)\d{2})(?![0-9])/g)) years.add(Number(m[1]));
  // Glued to a quarter: "Q22023".
  for (const m of question.matchAll(/\bQ[1-4]((?:19|20)\d{2})(?![0-9])/gi)) years.add(Number(m[1]));
  for (const m of question.matchAll(/\b(?:FY|fiscal\s+(?:year\s+)?)'?\s?(\d{2})(?![0-9])/gi)) years.add(2000 + Number(m[1]));
  return [...years].sort((a, b) => a - b);
}

/** The kinds of filing a question points at, as document-table types (10k, 10q, 8k, earnings). */
export function mentionedTypes(question: string): Set<string> {
  const t = new Set<string>();
  if (/\b10-?K\b|\bannual report\b/i.test(question)) t.add('10k');
  if (/\b10-?Q\b|\bquarter(ly)?\b|\bQ[1-4]/i.test(question)) t.add('10q');
  if (/\b8-?K\b/i.test(question)) t.add('8k');
  if (/\bearnings (release|report|call)\b|\bpress release\b/i.test(question)) t.add('earnings');
  return t;
}

const normType = (type: string): string => type.toLowerCase().replace(/[^a-z0-9]/g, '');

function scoreOne(question: string, qWords: string, years: number[], types: Set<string>, m: DocMetadata): { score: number; matched: string[] } {
  const matched: string[] = [];
  let score = 0;
  if (m.company) {
    const c = companyMatch(question, qWords, m.company);
    if (c > 0) {
      score += 4 * c;
      matched.push(`company ${m.company}`);
    }
  }
  const period = m.period ? Number(/\d{4}/.exec(m.period)?.[0]) : NaN;
  if (years.length && Number.isFinite(period)) {
    const p = period === years[years.length - 1] ? 1 : years.includes(period) ? 0.5 : 0;
    if (p > 0) {
      score += 2 * p;
      matched.push(`period ${m.period}`);
    }
  }
  if (m.type && types.has(normType(m.type))) {
    score += 1;
    matched.push(`type ${m.type}`);
  }
  return { score, matched };
}

/** Documents whose catalogue fields match the question, best first (ties in corpus order). */
export function metadataScores(question: string, docs: readonly DocTree[]): MetadataScore[] {
  const qWords = words(question);
  const years = mentionedYears(question);
  const types = mentionedTypes(question);
  const out: MetadataScore[] = [];
  for (const d of docs) {
    if (!d.metadata) continue;
    const { score, matched } = scoreOne(question, qWords, years, types, d.metadata);
    if (score > 0) out.push({ docId: d.docId, score, matched });
  }
  return out.sort((a, b) => b.score - a.score);
}

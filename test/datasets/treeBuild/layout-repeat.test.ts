// Layout headings: a label printed as a heading on page after page is not a section each time
// (its first occurrence may be one: a section's name repeated above its tables later on).
import { describe, expect, it } from 'vitest';
import type { TreeNode } from '../../../harness/types.ts';
import { buildPdfTree, treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import type { StyledLine } from '../pdf-writer.ts';
import { pdfContent, prose } from './build-helpers.ts';

const H = (text: string, size: number): StyledLine => ({ text, size, bold: true });
const titles = (nodes: TreeNode[]): string[] => nodes.flatMap((n) => [n.title, ...titles(n.children)]);

/**
 * Statements each under the company's name in bold (three pages), and an auditor's report
 * printed twice (two pages: two reports, both sections).
 */
const STATEMENTS: (string | StyledLine)[][] = [
  [H('Statements Review', 20), ...prose('Opening')],
  [...prose('Intro a', 3), H('Widget Co.', 12), H('Balance Sheet', 14), ...prose('Balance')],
  [...prose('Intro b', 3), H('Widget Co.', 12), H('Income Statement', 14), ...prose('Income')],
  [...prose('Intro c', 3), H('Widget Co.', 12), H('Cash Flows', 14), ...prose('Cash')],
  [...prose('Intro d', 3), H('Auditor Report', 14), ...prose('Audit one')],
  [...prose('Intro e', 3), H('Auditor Report', 14), ...prose('Audit two')],
];

describe('recurring labels in the layout', () => {
  it('keeps only the first of a title printed as a heading on three pages or more; keeps both of one printed on two', async () => {
    const content = await pdfContent(STATEMENTS);
    const { doc, report } = buildPdfTree(content, { docId: 'st' });
    expect(report.source).toBe('layout');
    expect(treeInvariantErrors(doc.nodes, content.pageCount)).toEqual([]);
    const all = titles(doc.nodes);
    expect(all.filter((t) => t === 'Widget Co.')).toHaveLength(1);
    expect(all.filter((t) => t === 'Auditor Report')).toHaveLength(2);
    expect(all).toEqual(expect.arrayContaining(['Balance Sheet', 'Income Statement', 'Cash Flows']));
  });
});

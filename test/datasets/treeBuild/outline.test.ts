import { describe, expect, it } from 'vitest';
import { buildPdfTree, treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import { pdfContent, prose, shape } from './build-helpers.ts';

const PAGES = [
  [{ text: 'Cover of the guide' }],
  [{ text: 'Setup', size: 16, bold: true }, ...prose('Setup'), { text: 'Wiring', size: 13, bold: true }, ...prose('Wiring')],
  [{ text: 'Usage', size: 16, bold: true }, ...prose('Usage')],
  [...prose('Usage continued')],
];

describe('outline', () => {
  it('uses plausible bookmarks and starts a section at its printed heading line', async () => {
    const content = await pdfContent(PAGES, [{ title: 'Setup', page: 2, children: [{ title: 'Wiring', page: 2 }] }, { title: 'Usage', page: 3 }]);
    const { doc, report } = buildPdfTree(content, { docId: 'g' });
    expect(report.source).toBe('outline');
    expect(report.reason).toBe('outline: 3 bookmarks on 2 pages');
    expect(shape(doc.nodes)).toEqual([['Front matter', [1, 1]], ['Setup', [2, 2], [['Wiring', [2, 2]]]], ['Usage', [3, 4]]]);
    expect(doc.nodes[1].text).not.toContain('Wiring paragraph');
    expect(doc.nodes[1].children[0].text!.startsWith('Wiring')).toBe(true);
  });

  it('does not trust bookmarks that all point at one page, and can ignore the outline', async () => {
    const content = await pdfContent(PAGES, [{ title: 'Setup', page: 2 }, { title: 'Usage', page: 2 }]);
    const { doc, report } = buildPdfTree(content, { docId: 'g' });
    expect(report.reason).toMatch(/^outline not plausible \(all bookmarks point at one page\); no printed table of contents found; 3 layout heading/);
    expect(report.source).toBe('layout');
    expect(treeInvariantErrors(doc.nodes, 4)).toEqual([]);
    const good = await pdfContent(PAGES, [{ title: 'Setup', page: 2 }, { title: 'Usage', page: 3 }]);
    expect(buildPdfTree(good, { docId: 'g', ignoreOutline: true }).report.reason).toMatch(/^outline ignored; /);
    expect(buildPdfTree(good, { docId: 'g', tree: 'pages' }).report.source).toBe('pages');
  });
});

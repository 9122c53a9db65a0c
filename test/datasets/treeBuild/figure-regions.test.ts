// Text drawn inside a figure (issue 26): a diagram's labels, in a bold or larger face, are no
// headings. The synthetic PDFs draw the figure as vector paths (boxes and arrows) or as an image,
// with the labels inside; a heading in a box of its own and a framed paragraph stay what they are.
import { describe, expect, it } from 'vitest';
import { buildPdfTree, treeInvariantErrors } from '../../../datasets/treeBuild/index.ts';
import type { StyledLine } from '../pdf-writer.ts';
import { pdfContent, prose, titlesOf } from './build-helpers.ts';

const B = (text: string, size = 11, y?: number, x?: number): StyledLine => ({ text, size, bold: true, ...(y !== undefined ? { y } : {}), ...(x !== undefined ? { x } : {}) });
const at = (lines: StyledLine[], y: number): StyledLine[] => lines.map((l, i) => (i === 0 ? { ...l, y } : l));

// three boxes stacked with arrows between them, x 90..240, y 430..610
const DIAGRAM = [
  '1 w 90 570 150 40 re S',
  '90 500 150 40 re S',
  '90 430 150 40 re S',
  '165 570 m 165 540 l S 160 546 m 165 540 l 170 546 l S',
  '165 500 m 165 470 l S 160 476 m 165 470 l 170 476 l S',
].join('\n');

describe('figure regions', () => {
  it('takes no label drawn inside a diagram (vector paths) or an image for a heading', async () => {
    const pages: StyledLine[][] = [
      [{ text: 'Sequence Models Report', size: 20, bold: true }, ...prose('Opening'), B('Overview', 14), ...prose('Overview'), B('Scope'), ...prose('Scope')],
      [
        B('Model Architecture', 14, 720),
        ...prose('Architecture'),
        B('Input Layer', 12, 585, 100),
        B('Encoder', 12, 515, 100),
        B('Decoder Output', 12, 445, 100),
        ...at(prose('Below the diagram'), 400),
        B('Training Setup'),
        ...prose('Training'),
      ],
      [
        B('Results', 14, 720),
        ...prose('Results'),
        B('Attention Map', 12, 560, 100),
        B('Token Weights', 12, 500, 100),
        ...at(prose('Below the image'), 400),
        B('Ablations'),
        ...prose('Ablations'),
      ],
      [B('Conclusion', 14, 720), ...prose('Conclusion'), B('Limitations'), ...prose('Limitations')],
    ];
    const content = await pdfContent(pages, undefined, { drawings: { 1: DIAGRAM }, images: { 2: [[90, 450, 200, 150]] } });
    const drawn = content.layout!.map((p) => p.drawings?.length ?? 0);
    expect(drawn).toEqual([0, 1, 1, 0]); // the diagram's boxes and arrows are one region; the image another
    const { doc } = buildPdfTree(content, { docId: 'fig' });
    expect(treeInvariantErrors(doc.nodes, content.pageCount)).toEqual([]);
    const titles = titlesOf(doc.nodes);
    expect(titles).toEqual(expect.arrayContaining(['Overview', 'Scope', 'Model Architecture', 'Training Setup', 'Results', 'Ablations', 'Conclusion', 'Limitations']));
    for (const label of ['Input Layer', 'Encoder', 'Decoder Output', 'Attention Map', 'Token Weights']) expect(titles).not.toContain(label);
  });

  it('keeps a heading in a box of its own and the heading of a framed paragraph', async () => {
    const pages: StyledLine[][] = [
      [{ text: 'Annual Review', size: 20, bold: true }, ...prose('Opening'), B('Overview', 14), ...prose('Overview')],
      [
        // a shaded band with a stroked border round one heading line
        B('Strategy', 14, 716),
        ...prose('Strategy'),
        // a framed sidebar: a heading (in a title bar) and its paragraph inside a box; a rule below
        B('Key Risks', 12, 560),
        ...prose('Risks'),
        ...at(prose('After the box'), 400),
      ],
      [B('Outlook', 14, 720), ...prose('Outlook')],
    ];
    const drawings = { 1: '0.9 g 66 708 480 28 re f 0 G 66 708 480 28 re S 0 g 66 470 480 110 re S 66 552 480 28 re S 66 440 m 546 440 l S' };
    const content = await pdfContent(pages, undefined, { drawings });
    expect(content.layout![1].drawings?.length).toBe(2);
    const { doc } = buildPdfTree(content, { docId: 'boxes' });
    expect(titlesOf(doc.nodes)).toEqual(expect.arrayContaining(['Overview', 'Strategy', 'Key Risks', 'Outlook']));
  });
});

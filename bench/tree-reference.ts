// How close the tree builder gets to reference tables of contents.
//
//   node bin/run-ts.mjs bench/tree-reference.ts     (npm run bench:trees)
//
// For each PDF in ../shared/datasets/tree-reference/ the tree is built with the bookmarks
// ignored and compared to the bookmarks (compareTrees); for each PDF in
// ../shared/datasets/pageindex-examples/ with a `<name>_structure.json`, to PageIndex's own tree.
// Per document: the source the builder chose, node count, depth, the top-two-level recall with
// title matched and start page exact (the headline), within one page, and precision; then means.
// `--extractor poppler` reads the PDFs with pdftohtml (corpus.extractor) instead of pdf.js.
// The target (issue 7) over the tree-reference PDFs: mean exact recall >= 0.8, precision >= 0.6.
// The fair figures (issue 26, compareTrees' `fair`): recall over the top-two-level entries
// printed on their start page, and precision over the built tree's top two levels; target
// >= 0.92 and >= 0.85.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePageIndexTree } from '../datasets/pageindex.ts';
import { PDF_EXTRACTORS, readPdfs, type PdfExtractor } from '../datasets/pdf.ts';
import { buildPdfTree, compareTrees, normalizeTitle, titlesMatch, treeInvariantErrors } from '../datasets/treeBuild/index.ts';
import { normText } from '../datasets/treeBuild/text.ts';
import { benchArgs } from './lib/args.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const shared = path.resolve(here, '../../shared/datasets');
const refDir = path.join(shared, 'tree-reference');
const piDir = path.join(shared, 'pageindex-examples');

interface Row {
  set: string;
  doc: string;
  source: string;
  nodes: number;
  depth: number;
  refNodes: number;
  exact: number;
  within1: number;
  title: number;
  precision: number;
  printed: number;
  fairExact: number;
  fairWithin1: number;
  precisionTop2: number;
}

const rows: Row[] = [];
const args = benchArgs(import.meta.url, {
  verbose: { type: 'boolean', default: false, help: "also print, per document, the builder's reason, its tree (four levels) and the reference entries it missed" },
  extractor: { type: 'string', default: 'pdfjs', choices: PDF_EXTRACTORS, help: 'which extractor reads the PDFs (corpus.extractor): pdfjs or poppler (pdftohtml)' },
});
const verbose = args.flag('verbose');
const extractor = args.string('extractor') as PdfExtractor;

async function measure(set: string, files: string[], reference: (file: string, content: Awaited<ReturnType<typeof readPdfs>>[number]) => import('../harness/types.ts').TreeNode[]) {
  const contents = await readPdfs(files, undefined, { extractor });
  files.forEach((file, i) => {
    const content = contents[i];
    const { doc, report } = buildPdfTree(content, { docId: path.basename(file), ignoreOutline: true });
    const bad = treeInvariantErrors(doc.nodes, content.pageCount);
    if (bad.length) console.error(`${path.basename(file)}: INVARIANTS BROKEN: ${bad.slice(0, 3).join('; ')}`);
    const ref = reference(file, content);
    const cmp = compareTrees(doc.nodes, ref, { pages: content.pages });
    const fair = cmp.fair!;
    const top2 = cmp.levels.find((l) => l.level === 'top2')!;
    rows.push({ set, doc: path.basename(file, '.pdf'), source: report.source, nodes: report.nodes, depth: report.depth, refNodes: top2.reference, exact: cmp.top2ExactRecall, within1: cmp.top2Within1Recall, title: top2.titleRecall, precision: cmp.precision, printed: fair.printed, fairExact: fair.exactRecall, fairWithin1: fair.within1Recall, precisionTop2: fair.precisionTop2 });
    if (verbose) {
      console.log(`\n## ${path.basename(file)}: ${report.reason}`);
      if (report.unlocated?.length) console.log(`unlocated: ${report.unlocated.join(' | ')}`);
      const show = (list: import('../harness/types.ts').TreeNode[], d: number) => list.forEach((n) => { if (d < 4) { console.log(`${'  '.repeat(d)}${n.title.slice(0, 80)} [${n.pages}]`); show(n.children, d + 1); } });
      show(doc.nodes, 0);
      // reference nodes of the top two levels not matched with an exact start page
      const builtFlat: import('../harness/types.ts').TreeNode[] = [];
      const flat = (l: import('../harness/types.ts').TreeNode[]) => l.forEach((n) => { builtFlat.push(n); flat(n.children); });
      flat(doc.nodes);
      const miss = (l: import('../harness/types.ts').TreeNode[], d: number) => l.forEach((r) => {
        if (d > 2) return;
        const hits = builtFlat.filter((b) => titlesMatch(b.title, r.title));
        if (!hits.some((b) => b.pages?.[0] === r.pages?.[0])) console.log(`  MISS${r.pages && content.pages[r.pages[0] - 1] !== undefined && !normText(content.pages[r.pages[0] - 1].replace(/&/g, ' and ')).replace(/ /g, '').includes(normalizeTitle(r.title).replace(/ /g, '')) ? ' (not printed)' : ''} ${r.title} @${r.pages?.[0]} -> ${hits.map((b) => `${b.title}@${b.pages?.[0]}`).join(', ') || 'no title match'}`);
        miss(r.children, d + 1);
      });
      miss(ref, 1);
      for (const t of fair.unmatchedTop2) console.log(`  FALSE ${t}`);
    }
  });
}

const refPdfs = fs.existsSync(refDir) ? fs.readdirSync(refDir).filter((f) => f.endsWith('.pdf')).sort().map((f) => path.join(refDir, f)) : [];
await measure('tree-reference', refPdfs, (file, content) => buildPdfTree(content, { docId: file, tree: 'outline' }).doc.nodes);
const piPdfs = fs.existsSync(piDir) ? fs.readdirSync(piDir).filter((f) => f.endsWith('.pdf') && fs.existsSync(path.join(piDir, f.replace(/\.pdf$/, '_structure.json')))).sort().map((f) => path.join(piDir, f)) : [];
await measure('pageindex', piPdfs, (file) => {
  const json = JSON.parse(fs.readFileSync(file.replace(/\.pdf$/, '_structure.json'), 'utf8'));
  return parsePageIndexTree(json, { docId: path.basename(file), source: file }).nodes;
});

const f2 = (v: number) => v.toFixed(2);
const header = ['set', 'document', 'source', 'nodes', 'depth', 'ref top2', 'top2 exact', 'top2 ±1', 'top2 title', 'precision', '| printed', 'fair exact', 'fair ±1', 'prec top2'];
const table = rows.map((r) => [r.set, r.doc, r.source, String(r.nodes), String(r.depth), String(r.refNodes), f2(r.exact), f2(r.within1), f2(r.title), f2(r.precision), String(r.printed), f2(r.fairExact), f2(r.fairWithin1), f2(r.precisionTop2)]);
for (const set of [...new Set(rows.map((r) => r.set))]) {
  const rs = rows.filter((r) => r.set === set);
  const mean = (k: keyof Row) => rs.reduce((s, r) => s + (r[k] as number), 0) / rs.length;
  table.push([set, `MEAN (${rs.length})`, '', '', '', '', f2(mean('exact')), f2(mean('within1')), f2(mean('title')), f2(mean('precision')), '', f2(mean('fairExact')), f2(mean('fairWithin1')), f2(mean('precisionTop2'))]);
}
const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
const line = (cells: string[]) => cells.map((c, i) => (i < 3 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log(line(header));
for (const r of table) console.log(line(r));
const ref = rows.filter((r) => r.set === 'tree-reference');
if (ref.length) {
  const exact = ref.reduce((s, r) => s + r.exact, 0) / ref.length;
  const precision = ref.reduce((s, r) => s + r.precision, 0) / ref.length;
  console.log(`\ntarget over tree-reference: mean top-two-level exact recall ${f2(exact)} (>= 0.80: ${exact >= 0.8 ? 'met' : 'NOT met'}), mean precision ${f2(precision)} (>= 0.60: ${precision >= 0.6 ? 'met' : 'NOT met'})`);
  const fairExact = ref.reduce((s, r) => s + r.fairExact, 0) / ref.length;
  const fairPrecision = ref.reduce((s, r) => s + r.precisionTop2, 0) / ref.length;
  console.log(`fair target (issue 26): mean recall over printed top-two-level entries, start exact ${f2(fairExact)} (>= 0.92: ${fairExact >= 0.92 ? 'met' : 'NOT met'}), mean top-two-level precision ${f2(fairPrecision)} (>= 0.85: ${fairPrecision >= 0.85 ? 'met' : 'NOT met'})`);
}

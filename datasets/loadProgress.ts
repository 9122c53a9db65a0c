// Progress on stderr while a load takes long (harness/run/progress.ts draws the line): PDF
// extraction counts documents and pages. Markdown folders have theirs in markdownIngest.ts,
// from TEXT_FILES_FOR_PROGRESS files up.
import { startProgress } from '../harness/run/progress.ts';
import { readPdfs, type PdfContent, type PdfExtractor } from './pdf.ts';

/** Folders with at least this many text files get a progress line (PDFs always do: each is slow). */
export const TEXT_FILES_FOR_PROGRESS = 300;

/** readPdfs with a progress line: documents done, pages/s and an ETA. */
export async function readPdfsWithProgress(files: string[], label = 'extracting PDF text', extractor?: PdfExtractor): Promise<PdfContent[]> {
  const distinct = new Set(files).size;
  if (distinct === 0) return [];
  const p = startProgress({ label, total: distinct, unit: 'PDFs', secondary: 'pages' });
  try {
    const out = await readPdfs(files, (c) => p.tick(1, c.pageCount), extractor ? { extractor } : {});
    p.done();
    return out;
  } catch (err) {
    p.done('stopped by an error');
    throw err;
  }
}

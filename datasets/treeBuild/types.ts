// The data the tree builder reads: a PDF's page texts, outline and layout lines, as
// datasets/pdf.ts extracts them (and re-exports these types). Kept here so the builder does not
// import the extraction module that calls it.

/** One bookmark of a PDF outline, resolved to a 1-based page (null when it points nowhere in the file). */
export interface OutlineItem {
  title: string;
  page: number | null;
  children: OutlineItem[];
}

export interface PdfContent {
  /** Text of each page, index 0 = page 1. Lines are separated by "\n"; empty for pages without a text layer. */
  pages: string[];
  /** The document outline (bookmarks), or null when the PDF has none. */
  outline: OutlineItem[] | null;
  /** Set when the outline is nested deeper than extraction reads: the depth it was cut at. */
  outlineCutAt?: number;
  pageCount: number;
  /** Per-page layout lines (index 0 = page 1), for tree building; absent for content made by hand. */
  layout?: PageLayout[];
}

/** One non-empty text line of a page, as drawn (PDF user space: y grows upwards from the page bottom). */
export interface LayoutLine {
  /** The line's text, exactly as the matching non-empty line of the page text. */
  text: string;
  /** Left edge and baseline of the line's first item. */
  x: number;
  y: number;
  /** Font size (largest among the line's items). */
  size: number;
  /** Name of the font carrying most of the line's characters ("" when unknown). */
  font: string;
  /** That font is heavier than the body font (fontWeight.ts: descriptor weight, name, stems). */
  bold: boolean;
  /** That font's weight, 100–900 (400 when nothing says; absent in content made by hand). */
  weight?: number;
}

/** The layout of one page: its size and its non-empty lines in reading (content-stream) order. */
export interface PageLayout {
  width: number;
  height: number;
  lines: LayoutLine[];
}

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
  /**
   * The line's style runs, when its items are not all in one font: consecutive items in the
   * same font make one run (a bold run-in head "Depreciation." then the regular paragraph).
   */
  spans?: LayoutSpan[];
}

/** One style run of a line: its text (blanks collapsed, trimmed) and its font. */
export interface LayoutSpan {
  text: string;
  font: string;
  bold: boolean;
  size: number;
}

/**
 * A cluster of what the page draws: vector paths and images touching or close to each other
 * (pdf-worker.mjs, "Drawings"; thin page-wide rules and backgrounds left out), in PDF user space.
 */
export interface DrawnRegion {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Painted paths in it. */
  paths: number;
  /** Images in it. */
  images: number;
}

/** The layout of one page: its size and its non-empty lines in reading (content-stream) order. */
export interface PageLayout {
  width: number;
  height: number;
  lines: LayoutLine[];
  /** What the page draws (figures, diagrams, ruled tables, boxes); absent when nothing or unknown. */
  drawings?: DrawnRegion[];
}

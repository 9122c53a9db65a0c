// Public surface of datasets/: loaders, the registry and inspection.
export { DataError, isDataError, formatLocated } from './errors.ts';
export { parsePageIndexTree, loadPageIndexFile, pageIndexDocIdFromFile } from './pageindex.ts';
export { parseMarkdown, loadMarkdownFile, cleanHeadingTitle, scanHeadings } from './markdown.ts';
export { loadQuestions, questionMappingSchema, parseQuestionMapping, NATIVE_MAPPING, getPath, parseCsvRecords } from './mapping.ts';
export type { QuestionMapping, QuestionMappingInput } from './mapping.ts';
export { loadEmanualS10, buildEmanualTree, matchSectionPath, EMANUAL_DOC_ID } from './emanual.ts';
export { loadNativeCorpus, loadNativeFile, parseNativeDocs } from './native.ts';
export { readPdf, readPdfs, pdfDocTree, loadPdfFile, pageText, clearPdfCache } from './pdf.ts';
export type { PdfContent, OutlineItem, PdfTreeOptions, PageLayout, LayoutLine } from './pdf.ts';
export { buildPdfTree, compareTrees, treeInvariantErrors, TREE_BUILDER_VERSION, TREE_CHOICES } from './treeBuild/index.ts';
export type { TreeBuildOptions, TreeBuildReport, TreeChoice, TreeSource, TreeComparison, LevelAgreement } from './treeBuild/index.ts';
export { loadFinanceBench, FINANCEBENCH_MAPPING, docTitle as financeBenchDocTitle } from './financebench.ts';
export type { FinanceBenchData, FinanceBenchOptions } from './financebench.ts';
export { datasetConfigSchema, corpusConfigSchema, benchmarkDataConfigSchema, parseDataConfig } from './config.ts';
export type { DatasetConfig, CorpusConfig, BenchmarkDataConfig, BenchmarkDataConfigInput } from './config.ts';
export {
  loadBenchmarkData,
  checkReferences,
  datasetLoaders,
  corpusLoaders,
  registerDatasetLoader,
  registerCorpusLoader,
  findDatasetLoader,
  findCorpusLoader,
  markdownDocId,
  pdfDocId,
  BUNDLED_SAMPLE_DIR,
} from './registry.ts';
export type { BenchmarkData, LoadedDataset, LoadedCorpus, DatasetLoaderFactory, CorpusLoaderFactory } from './registry.ts';
export { inspectData, formatInspect, approxTokens } from './inspect.ts';
export { loadPassagesFile, passageMappingSchema } from './passages.ts';
export type { PassageMapping } from './passages.ts';
export { resolveTitlePaths, TitlePathIndex } from './titlePath.ts';
export { matchesFilter, recordFilterSchema } from './recordFilter.ts';
export type { RecordFilter, FilterCondition } from './recordFilter.ts';
export { parseListString } from './listString.ts';
export { loadQuestionSet } from './mapping.ts';
export { financeBenchLayout } from './financebench.ts';
export type { InspectStats } from './inspect.ts';

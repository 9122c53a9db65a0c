// What the dataset registry loads only for formats that read PDFs: FinanceBench's loader, PDF
// reading and ingestion, and the tree builder's versions. One module, imported lazily as one:
// each lazily imported module is an entry point of the command's bundle, and more entry points
// split the code they share into more, smaller chunks (every chunk costs a start ~0.45 ms).
export { loadFinanceBench } from './financebench.ts';
export { readPdfsWithProgress } from './loadProgress.ts';
export { pageTextWarnings } from './pdf.ts';
export { ingestPdfs } from './ingest.ts';
export { TREE_BUILDER_VERSION } from './treeBuild/index.ts';
export { MODEL_TREE_VERSION } from './treeBuild/model.ts';

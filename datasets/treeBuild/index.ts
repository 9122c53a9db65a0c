// The tree builder for PDFs: outline, printed table of contents, layout headings, page groups.
export { buildPdfTree, TREE_BUILDER_VERSION, TREE_CHOICES, type TreeBuildOptions, type TreeBuildReport, type TreeChoice, type TreeSource } from './build.ts';
export { compareTrees, normalizeTitle, titlesMatch, type LevelAgreement, type TreeComparison } from './compare.ts';
export { treeInvariantErrors } from './invariants.ts';

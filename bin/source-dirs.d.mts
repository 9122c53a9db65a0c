/** The folders that hold treebench's TypeScript sources (tsconfig.json's `include`, minus tests and benchmarks). */
export function sourceDirs(root: string): string[];
/** Whether the compiled JavaScript is at least as new as every TypeScript source (`npm run build`). */
export function buildIsCurrent(root: string): Promise<boolean>;
/** Every file of those entries, relative to the root (an entry may be a single file such as index.ts). */
export function sourceFiles(root: string): string[];
/** What the build records of its sources in .build-stamp: the entries, every folder under them, every .ts source. */
export function sourceListing(root: string): { entries: string[]; dirs: string[]; files: string[] };

// The report formats `run --format` and `report --format` offer: the built-in renderers of
// reports/index.ts (a module of its own, so the run command can offer them without loading them).
export const FORMATS = ['table', 'md', 'csv', 'json', 'html'] as const;

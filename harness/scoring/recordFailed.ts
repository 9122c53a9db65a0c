import type { RunRecord } from '../types.ts';

/** A record that errored (or was never scored) is wrong, whatever partial scores it carries. */
export const recordFailed = (r: RunRecord): boolean => (r.error !== null && r.error !== undefined) || !r.scores;

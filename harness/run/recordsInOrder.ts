// A run folder's records in the run's order (sortLikeRun), without holding them: a report that
// walks every record (the HTML report's matrix and data island) iterates this instead of an
// array of full records, whose traces and answers are most of a run's size (a 40,000-record run
// holds ~130 MB of them). The first iteration reads records.jsonl once to keep, per record, only
// its sort key and where its line is; every iteration then reads the lines back one at a time in
// that order. Memory is that of the places (a few dozen bytes a record) and one record.
import { closeSync, openSync } from 'node:fs';
import { sortLikeRun } from './order.ts';
import type { RecordPlace, RunManifest, RunStore } from './store.ts';
import type { RunRecord } from '../types.ts';

interface Placed extends RecordPlace {
  strategy: string;
  questionId: string;
  repeat: number;
}

/**
 * Every record of `store` (superseded ones too, as readRecords gives them), in the order
 * `sortLikeRun(store.readRecords(), manifest)` would give; iterable any number of times.
 */
export function recordsInRunOrder(store: RunStore, manifest: Pick<RunManifest, 'strategies' | 'questionIds'>): Iterable<RunRecord> {
  let places: Placed[] | null = null;
  return {
    *[Symbol.iterator]() {
      if (!places) {
        const found: Placed[] = [];
        store.forEachRecord((r, place) => void found.push({ strategy: r.strategy, questionId: r.questionId, repeat: r.repeat, ...place }));
        places = sortLikeRun(found, manifest);
      }
      if (!places.length) return;
      const fd = openSync(store.recordsPath, 'r');
      try {
        for (const place of places) yield store.readRecordAt(place, fd);
      } finally {
        closeSync(fd);
      }
    },
  };
}

// A worker thread's side of parallelBootstrap.ts. Messages in, in this order:
//  - optionally `draws`: fill the shared buffer with every replicate's multiplicities
//    (drawMultiplicities), answered with whether they fit; then the thread warms the code that
//    computes replicates from them (warmReplicates), while the run's calls go on;
//  - then one of `jobs` (whole jobs or column parts: their results) or `replicates` (a range of
//    replicates of every job, read from the shared draws: their values), answered, after which
//    the thread ends.
// The computing is clusterBootstrap.ts, the same code the calling thread runs.
import { parentPort } from 'node:worker_threads';
import { clusterBootstrap, drawMultiplicities, replicatesFromDraws, warmReplicates, type ClusterBootstrapJob } from './clusterBootstrap.ts';

export type WorkerRequest =
  | { kind: 'draws'; k: number; resamples: number; seed: number; buffer: SharedArrayBuffer }
  | { kind: 'jobs'; jobs: ClusterBootstrapJob[] }
  | { kind: 'replicates'; jobs: ClusterBootstrapJob[]; buffer: SharedArrayBuffer; from: number; to: number };

const onMessage = (m: WorkerRequest) => {
  if (m.kind === 'draws') {
    const ok = drawMultiplicities(m.k, m.resamples, m.seed, new Uint8Array(m.buffer));
    parentPort!.postMessage({ kind: 'draws', ok });
    if (ok) warmReplicates();
    return;
  }
  if (m.kind === 'jobs') parentPort!.postMessage({ kind: 'jobs', results: m.jobs.map((job) => clusterBootstrap(job)) });
  else {
    const draws = new Uint8Array(m.buffer);
    parentPort!.postMessage({ kind: 'replicates', blocks: m.jobs.map((job) => replicatesFromDraws(job, draws, m.from, m.to)) });
  }
  // The work is done: with nothing left to listen to, the thread ends by itself.
  parentPort!.off('message', onMessage);
};
parentPort!.on('message', onMessage);

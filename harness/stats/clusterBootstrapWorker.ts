// A worker thread's side of parallelBootstrap.ts: one message of cluster bootstrap jobs in,
// their results out (clusterBootstrap.ts, the same code the calling thread runs).
import { parentPort } from 'node:worker_threads';
import { clusterBootstrap, type ClusterBootstrapJob } from './clusterBootstrap.ts';

parentPort!.once('message', (jobs: ClusterBootstrapJob[]) => {
  parentPort!.postMessage(jobs.map(clusterBootstrap));
});

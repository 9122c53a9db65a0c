// Where a command plugin's worker writes its stderr: named here, apart from the host, so that
// `treebench run` can point at the logs of failed strategies without loading the plugin host.
import { join } from 'node:path';

/** A worker's stderr log, relative to the run folder. */
export const workerLogFile = (id: string): string => join('logs', `${id.replace(/[^A-Za-z0-9._-]+/g, '_')}.stderr.log`);

// Validating the data sections of a config on their own (`parseDataConfig`), for loaders called
// without a whole run config. The schemas are the run config's (harness/config/dataSections.ts).
import { DataError } from './errors.ts';
import { benchmarkDataConfigSchema, type BenchmarkDataConfig } from '../harness/config/dataSections.ts';

export {
  benchmarkDataConfigSchema,
  corpusConfigSchema,
  datasetConfigSchema,
  type BenchmarkDataConfig,
  type BenchmarkDataConfigInput,
  type CorpusConfig,
  type DatasetConfig,
} from '../harness/config/dataSections.ts';

/** Validates the data sections; the first problem becomes a DataError naming its field path. */
export function parseDataConfig(input: unknown, file?: string): BenchmarkDataConfig {
  const r = benchmarkDataConfigSchema.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue.path.map(String).join('.') || undefined;
  throw new DataError(issue.message, { file, field });
}

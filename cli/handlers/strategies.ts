// `treebench strategies`: the strategies and their parameters with defaults.
import type { Argv } from 'yargs';
import { listStrategies, registerBuiltinStrategies } from '../../strategies/registry.ts';

registerBuiltinStrategies();
import type { CommandBody, Runner } from '../runner.ts';

function cmdStrategies(args: { format?: 'text' | 'json' } = {}): number {
  if (args.format === 'json') {
    const list = listStrategies().map((s) => {
      const defaults = s.params.safeParse({});
      return { name: s.name, description: s.description, defaults: defaults.success ? defaults.data : null };
    });
    process.stdout.write(JSON.stringify(list, null, 2) + '\n');
    return 0;
  }
  for (const s of listStrategies()) {
    const defaults = s.params.safeParse({});
    process.stdout.write(`${s.name}\n  ${s.description}\n  params (defaults): ${defaults.success ? JSON.stringify(defaults.data) : '(see docs/strategies.md)'}\n`);
  }
  return 0;
}

export function strategiesCommand(run: Runner): CommandBody {
  return {
    builder: (y: Argv) => y.option('format', { choices: ['text', 'json'] as const, default: 'text' as const }),
    handler: (a) => run(() => cmdStrategies(a as unknown as Parameters<typeof cmdStrategies>[0]))(),
  };
}

// `treebench strategies`: the strategies and their parameters with defaults, and the prompts a
// config may replace (`prompts: { <name>: ./file.md }`) with the variables their templates may use.
import type { Argv } from 'yargs';
import { listStrategies, registerBuiltinStrategies } from '../../strategies/registry.ts';
import type { CommandBody, Runner } from '../runner.ts';

registerBuiltinStrategies();

function cmdStrategies(args: { format?: 'text' | 'json' } = {}): number {
  if (args.format === 'json') {
    const list = listStrategies().map((s) => {
      const defaults = s.params.safeParse({});
      return { name: s.name, description: s.description, defaults: defaults.success ? defaults.data : null, prompts: s.prompts ?? [] };
    });
    process.stdout.write(JSON.stringify(list, null, 2) + '\n');
    return 0;
  }
  for (const s of listStrategies()) {
    const defaults = s.params.safeParse({});
    process.stdout.write(`${s.name}\n  ${s.description}\n  params (defaults): ${defaults.success ? JSON.stringify(defaults.data) : '(see docs/strategies.md)'}\n`);
    if (s.prompts?.length) {
      process.stdout.write('  prompts (replace with `prompts: { <name>: ./file.md }`):\n');
      for (const p of s.prompts) process.stdout.write(`    ${p.name}: ${p.description}; variables ${p.variables.map((v) => `{{${v}}}`).join(' ')}\n`);
    }
  }
  process.stdout.write('\nYour own strategy: a module, a worker or a service (docs/plugins.md).\n');
  return 0;
}

export function strategiesCommand(run: Runner): CommandBody {
  return {
    builder: (y: Argv) => y.option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'text, or json: name, description, defaults and prompts of each strategy' }),
    handler: (a) => run(() => cmdStrategies(a as unknown as Parameters<typeof cmdStrategies>[0]))(),
  };
}

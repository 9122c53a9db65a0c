// Every command's --help describes every option, positional and subcommand: a walk over the
// command table (and each command's subcommands) asserting no item lacks its description.
import { describe, expect, it, vi } from 'vitest';
import { COMMANDS, commandName } from '../../cli/commands.ts';
import { runCli } from './runCli.ts';

/** Items of a yargs help text with nothing between the name and the [type]/end of line. */
export function undescribed(help: string): string[] {
  const out: string[] = [];
  let section = '';
  for (const line of help.split('\n')) {
    if (/^\S.*:$/.test(line)) {
      section = line;
      continue;
    }
    if (!/^(Options|Positionals|Commands):$/.test(section)) continue;
    // "  -h, --help   Show help   [boolean]" or "  treebench datasets inspect <name>   Describe …".
    // Items start within the first columns; a wrapped description's continuation is indented further.
    const m = /^( {2,6})(\S.*?)(?: {2,}(.*))?$/.exec(line);
    if (!m) continue;
    const name = m[2]!;
    const rest = (m[3] ?? '').trim();
    if (section === 'Commands:' ? !rest : !rest || rest.startsWith('[')) {
      if (section === 'Commands:' && !name.startsWith('treebench ')) continue;
      out.push(`${section.replace(':', '')} ${name}`);
    }
  }
  return out;
}

async function helpOf(path: string[]): Promise<string> {
  // yargs prints help through console.log.
  let logged = '';
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void (logged += `${a.join(' ')}\n`));
  try {
    const r = await runCli([...path, '--help']);
    return logged + r.stdout + r.stderr;
  } finally {
    log.mockRestore();
  }
}

/** Subcommand paths listed under "Commands:" in a help text (treebench datasets inspect <name> → [datasets, inspect]). */
function subcommands(help: string, path: string[]): string[][] {
  const subs: string[][] = [];
  let inCommands = false;
  for (const line of help.split('\n')) {
    if (/^\S.*:$/.test(line)) inCommands = line === 'Commands:';
    else if (inCommands) {
      const m = new RegExp(`^ {2,}treebench ${path.join(' ')} (\\w[\\w-]*)`).exec(line);
      if (m) subs.push([...path, m[1]!]);
    }
  }
  return subs;
}

describe('every --help item is described', () => {
  it('the detector finds an undescribed option and subcommand', () => {
    const help = 'Commands:\n  treebench datasets inspect <name>\n  treebench datasets list  List them\n\nOptions:\n      --format  [choices: "a", "b"]\n      --out     Write here, a long text that\n                wraps  [string]\n';
    expect(undescribed(help)).toEqual(['Commands treebench datasets inspect <name>', 'Options --format']);
  });

  it('walks every command and subcommand', async () => {
    const missing: string[] = [];
    const queue = COMMANDS.map((c) => [commandName(c)]);
    let walked = 0;
    while (queue.length) {
      const path = queue.shift()!;
      const help = await helpOf(path);
      walked++;
      for (const item of undescribed(help)) missing.push(`treebench ${path.join(' ')}: ${item}`);
      queue.push(...subcommands(help, path));
    }
    expect(walked).toBeGreaterThan(COMMANDS.length);
    expect(missing).toEqual([]);
  }, 60_000);
});

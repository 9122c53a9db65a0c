// The GitHub Actions workflows users copy (examples/github-actions/, also shown in docs/ci-gating.md):
// parsed and checked for the properties whose absence broke them before — hidden baseline
// folders uploaded without include-hidden-files, `gh run` without `actions: read`, and
// informational steps that could fail the job — and every treebench invocation is checked
// against the CLI's own commands and options.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../cli/runCli.ts';

const DIR = 'examples/github-actions';
const files = readdirSync(DIR).filter((f) => f.endsWith('.yml'));

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  'continue-on-error'?: boolean;
  if?: string;
}
interface Job {
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

const load = (f: string) => ({ file: f, text: readFileSync(join(DIR, f), 'utf8'), wf: parse(readFileSync(join(DIR, f), 'utf8')) as Workflow });
const workflows = files.map(load);
const steps = (wf: Workflow) => Object.entries(wf.jobs).flatMap(([job, j]) => j.steps.map((s) => ({ job, j, s })));

describe('example GitHub Actions workflows', () => {
  it('ships the nightly and the PR gate', () => {
    expect(files.sort()).toEqual(['treebench-gate.yml', 'treebench-nightly.yml']);
  });

  it.each(workflows)('$file: uploads of hidden folders set include-hidden-files', ({ wf }) => {
    for (const { s } of steps(wf)) {
      if (!s.uses?.startsWith('actions/upload-artifact@')) continue;
      const paths = String(s.with?.path ?? '').split('\n').map((p) => p.trim()).filter(Boolean);
      const hidden = paths.some((p) => p.split('/').some((seg) => seg.startsWith('.') && seg !== '.' && seg !== '..'));
      if (hidden) expect(s.with?.['include-hidden-files'], `${s.with?.name}: ${paths.join(', ')}`).toBe(true);
    }
  });

  it.each(workflows)('$file: jobs that call `gh run` may read actions', ({ wf }) => {
    for (const [name, job] of Object.entries(wf.jobs)) {
      if (!job.steps.some((s) => /\bgh run (list|download)\b/.test(s.run ?? ''))) continue;
      const perms = job.permissions ?? wf.permissions ?? {};
      expect(['read', 'write'], `job ${name}`).toContain(perms.actions);
      expect(JSON.stringify(job) + JSON.stringify(wf), `job ${name} needs a token for gh`).toMatch(/GH_TOKEN/);
    }
  });

  it.each(workflows)('$file: informational steps cannot fail the job', ({ wf }) => {
    const informational = steps(wf).filter(({ s }) => /informational/i.test(s.name ?? '') || /treebench (compare|history)\b/.test(s.run ?? ''));
    expect(informational.length).toBeGreaterThan(0);
    for (const { s } of informational) {
      expect(s['continue-on-error'], s.name ?? s.run).toBe(true);
      // A multi-line script also must not stop half way (bash -e) on the first failing command.
      if ((s.run ?? '').trim().includes('\n')) {
        expect(s.run).toMatch(/^\s*set \+e/);
        expect(s.run!.trim()).toMatch(/exit 0$/);
      }
    }
  });

  it('the nightly keeps the history and publishes the HTML; the gate fails clearly without a baseline', () => {
    const nightly = workflows.find((w) => w.file === 'treebench-nightly.yml')!;
    const uploads = steps(nightly.wf).filter(({ s }) => s.uses?.startsWith('actions/upload-artifact@')).map(({ s }) => s.with!);
    expect(uploads.map((u) => u.name)).toEqual(expect.arrayContaining(['treebench-baseline-main', 'treebench-history']));
    expect(uploads.some((u) => /history\.html/.test(String(u.path)) && /report\.html/.test(String(u.path)))).toBe(true);
    const gate = workflows.find((w) => w.file === 'treebench-gate.yml')!;
    const fetch = steps(gate.wf).find(({ s }) => /gh run download/.test(s.run ?? ''))!.s.run!;
    expect(fetch).toMatch(/if \[ -z "\$id" \]; then[\s\S]*::error::[\s\S]*exit 1/);
  });

  it('every treebench invocation names a real command and real options', async () => {
    const calls = workflows.flatMap(({ wf }) => steps(wf).flatMap(({ s }) => [...(s.run ?? '').matchAll(/npx treebench ([a-z-]+(?: [a-z][a-z-]*)*)((?: +[^|>&;\n]+)?)/g)].map((m) => ({ command: m[1]!, args: m[2] ?? '' }))));
    expect(calls.length).toBeGreaterThanOrEqual(8);
    for (const { command, args } of calls) {
      // yargs prints help with console.log.
      let text = '';
      const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void (text += a.join(' ') + '\n'));
      try {
        // Leading words are the command and its subcommand (`baseline save`); a positional taken
        // for a subcommand does no harm, --help prints the command's options either way.
        const help = await runCli([...command.split(' '), '--help']);
        expect(help.code, `treebench ${command}`).toBe(0);
        text += help.stdout;
      } finally {
        log.mockRestore();
      }
      expect(text, `treebench ${command} --help`).toMatch(/Options:/);
      for (const opt of args.match(/(?<=\s)--[a-z-]+/g) ?? []) expect(text, `treebench ${command} ${opt}`).toContain(opt);
    }
  });

  it('docs/ci-gating.md shows the same workflows as the files', () => {
    const guide = readFileSync('docs/ci-gating.md', 'utf8');
    for (const { file, text } of workflows) {
      const block = [...guide.matchAll(/```yaml workflow\n([\s\S]*?)```/g)].map((m) => m[1]).find((b) => b!.startsWith(`# .github/workflows/${file}`));
      expect(block, `docs/ci-gating.md block for ${file}`).toBe(text);
    }
  });
});

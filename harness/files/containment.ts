// The one containment rule for paths that come from data. A loader that turns a value read from a
// dataset (a FinanceBench doc_name, a PageIndex doc_name, a document id) into a file name inside
// a folder the config named must stay inside that folder: `../../outside/secret`, an absolute
// path, a NUL byte or (where names are flat) a separator never lead anywhere else. Every such
// join goes through dataPath; a name that would escape gets null, and the loader says so in a
// warning and treats the file as absent. The check is on the path as written: a symlink inside
// the folder is the folder owner's choice (test fixtures and shared PDF stores use them), while
// data can only choose names.
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

export interface DataPathOptions {
  /** Appended to the name (e.g. `.pdf`). */
  suffix?: string;
  /** Allow `a/b` below the folder (ids that mirror a nested folder); default: one plain file name. */
  subfolders?: boolean;
}

/** `root/<name><suffix>` when it stays inside `root`; null when a name from data would lead out of it. */
export function dataPath(root: string, name: string, opts: DataPathOptions = {}): string | null {
  if (!name || name.includes('\u0000') || isAbsolute(name) || /^[A-Za-z]:/.test(name)) return null;
  if (!opts.subfolders && (name.includes('/') || name.includes('\\'))) return null;
  const segments = name.split(/[/\\]/);
  if (segments.some((s) => s === '..' || s === '.' || s === '')) return null;
  const full = join(root, `${name}${opts.suffix ?? ''}`);
  const rel = relative(resolve(root), resolve(full));
  if (!rel || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return null;
  return full;
}

/** The warning a loader gives for a name dataPath refused. */
export function escapeWarning(where: string, what: string, name: string, root: string): string {
  return `${where}: ${what} ${JSON.stringify(name)} is not a plain name inside ${root}; not looking for a file outside that folder`;
}

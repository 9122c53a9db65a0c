// Environment variables in configs: `${VAR}` and `${VAR:-default}` inside any string value.
//
// Substitution happens on the parsed YAML, value by value, so error messages keep their lines.
// A value that is exactly one placeholder takes the type its text reads as in YAML
// (`beamWidth: ${BEAM:-3}` gives the number 3, `enabled: ${CACHE:-true}` a boolean); a placeholder
// inside longer text is plain text. `$${` writes a literal `${`. A variable that is unset and has
// no default is an error naming the file, line, field and variable. `:-` also applies the default
// when the variable is set but empty, as in the POSIX shell.
import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { ConfigError, formatFieldPath } from '../errors.ts';
import { registerSecret } from '../models/secrets.ts';

/** Variables whose values must never be written down (the manifest gets a digest instead). */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL/i;

const PLACEHOLDER = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
const MALFORMED = /\$\{(?![A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\})/;

export interface Substitution {
  /** The value after substitution. */
  data: unknown;
  /**
   * Variables read, with the value used (the default when unset): part of the config hash. A
   * secret-looking name (…KEY, …TOKEN, …SECRET, …PASSWORD) gets `sha256:<digest>` instead, and
   * its value is registered for redaction wherever else it might be written.
   */
  used: Record<string, string>;
}

/** Substitutes `${VAR}` / `${VAR:-default}` in every string of `data`; `where` names file:line of a path. */
export function substituteEnv(data: unknown, env: Record<string, string | undefined>, where: (path: PropertyKey[]) => string = () => 'config'): Substitution {
  const used: Record<string, string> = {};
  const errors: string[] = [];

  const subString = (s: string, path: PropertyKey[]): unknown => {
    if (!s.includes('${')) return s;
    const field = formatFieldPath(path) || '(top level)';
    const bad = MALFORMED.exec(s.replace(/\$\$\{/g, ''));
    if (bad) {
      errors.push(`  ${where(path)} ${field}: malformed placeholder in "${s}" (write \${NAME} or \${NAME:-default}; $\${ for a literal \${)`);
      return s;
    }
    let whole: string | undefined;
    let wholeMatch = false;
    const out = s.replace(PLACEHOLDER, (match, name: string | undefined, fallback: string | undefined, offset: number) => {
      if (match === '$${') return '${';
      const value = env[name!];
      let v: string;
      if (value !== undefined && (value !== '' || fallback === undefined)) v = value;
      else if (fallback !== undefined) v = fallback;
      else {
        errors.push(`  ${where(path)} ${field}: environment variable ${name} is not set (set it, or write \${${name}:-default})`);
        v = '';
      }
      if (SECRET_NAME.test(name!) && v) {
        registerSecret(v);
        used[name!] = `sha256:${createHash('sha256').update(v).digest('hex').slice(0, 16)}`;
      } else used[name!] = v;
      if (offset === 0 && match.length === s.length) {
        wholeMatch = true;
        whole = v;
      }
      return v;
    });
    if (wholeMatch) {
      // A lone placeholder reads as YAML would read its text: numbers, booleans, null.
      try {
        const typed = parseYaml(whole!) as unknown;
        return typed === null || typeof typed !== 'object' ? typed ?? whole : whole;
      } catch {
        return whole;
      }
    }
    return out;
  };

  const walk = (value: unknown, path: PropertyKey[]): unknown => {
    if (typeof value === 'string') return subString(value, path);
    if (Array.isArray(value)) return value.map((v, i) => walk(v, [...path, i]));
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, walk(v, [...path, k])]));
    }
    return value;
  };

  const out = walk(data, []);
  if (errors.length) throw new ConfigError(`invalid config:\n${errors.join('\n')}`);
  return { data: out, used };
}

import { afterEach, describe, expect, it } from 'vitest';
import { REDACTED, redactDeep, redactSecrets, registerSecret } from '../../../harness/models/secrets.ts';

const saved = process.env.OPENAI_API_KEY;
afterEach(() => {
  if (saved === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = saved;
});

describe('redactSecrets', () => {
  it('removes the value of OPENAI_API_KEY wherever it appears, whatever its shape', () => {
    process.env.OPENAI_API_KEY = 'plainlocalkey-998877';
    expect(redactSecrets('key=plainlocalkey-998877; again plainlocalkey-998877')).toBe(`key=${REDACTED}; again ${REDACTED}`);
  });

  it('removes sk- keys, bearer tokens and authorization headers', () => {
    const key = `sk-${'proj-AbCdEf0123456789_xyz-QRST'}`;
    expect(redactSecrets(`Incorrect API key provided: ${key}.`)).toBe(`Incorrect API key provided: ${REDACTED}.`);
    expect(redactSecrets('Authorization: Bearer abc.def-ghi')).toBe(`Authorization: ${REDACTED}`);
    expect(redactSecrets('{"authorization":"Bearer tok123456","x":1}')).toBe(`{"authorization":"${REDACTED}","x":1}`);
    expect(redactSecrets('sent Bearer eyJhbGciOi.payload.sig to the server')).toBe(`sent Bearer ${REDACTED} to the server`);
    expect(redactSecrets('GET /v1/models?api_key=secret123&x=1')).toBe(`GET /v1/models?api_key=${REDACTED}&x=1`);
    expect(redactSecrets('x-api-key: 12345678abcdef')).toBe(`x-api-key: ${REDACTED}`);
  });

  it('removes passwords from URLs and registered secrets', () => {
    expect(redactSecrets('http://user:hunter22@proxy.local:8080/v1')).toBe(`http://${REDACTED}@proxy.local:8080/v1`);
    registerSecret('custom-provider-token-5555');
    expect(redactSecrets('token custom-provider-token-5555 used')).toBe(`token ${REDACTED} used`);
    registerSecret('abc'); // too short to register: would wreck ordinary text
    expect(redactSecrets('abc abc')).toBe('abc abc');
  });

  it('leaves ordinary text alone', () => {
    delete process.env.OPENAI_API_KEY;
    const text = 'Ask-me tasks: the risk-based sk- prefix, a task-list, apiKeyEnv: OPENAI_API_KEY, 401 Unauthorized.';
    expect(redactSecrets(text)).toBe(text);
    expect(redactSecrets('')).toBe('');
  });

  it('redactDeep scrubs every string of a record and keeps the rest', () => {
    const vec = new Float32Array([1, 2]);
    const rec = { error: `failed with sk-${'abcdefghijklmnop'}`, calls: 3, nested: [{ msg: 'Bearer abcdefgh' }], vec };
    const out = redactDeep(rec);
    expect(out).toEqual({ error: `failed with ${REDACTED}`, calls: 3, nested: [{ msg: `Bearer ${REDACTED}` }], vec });
    expect(out.vec).toBe(vec);
    expect(rec.error).toContain('sk-'); // the input is not modified
  });
});

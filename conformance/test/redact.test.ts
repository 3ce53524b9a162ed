import { describe, expect, it } from 'vitest';
import { redactBody } from '../src/redact.js';

describe('redactBody (what reports keep of an answer)', () => {
  it('replaces every string under a secret name, at any depth, in any spelling', () => {
    const answer = {
      result: 'success',
      api_key: 'k1',
      apiKeys: ['k2', 'k3'],
      credentials: [{ email: 'a@x.test', API_KEY: 'k4', nested: { token: { value: 'k5' } } }],
    };
    const text = JSON.stringify(redactBody(answer));
    for (const key of ['k1', 'k2', 'k3', 'k4', 'k5']) expect(text).not.toContain(key);
    expect(redactBody(answer)).toMatchObject({ result: 'success', credentials: [{ email: 'a@x.test' }] });
  });

  it('keeps numbers and booleans under secret-looking names: they carry no secret', () => {
    expect(redactBody({ password_min_length: 6, require_password: true })).toEqual({ password_min_length: 6, require_password: true });
  });
});

import type { Request, Response } from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { badRequest } from '../../src/domain/errors.js';
import { errorHandler } from '../../src/http/respond.js';
import { StateWriteFailed } from '../../src/store/errors.js';

/** Just enough of express's response to read what the error handler sent. */
function capture() {
  const sent = { status: 0, headers: {} as Record<string, unknown>, body: undefined as unknown };
  const res = {
    headersSent: false,
    // The answer writer sets the status code as node:http's response takes it (not through express's status()).
    set statusCode(code: number) {
      sent.status = code;
    },
    setHeader(name: string, value: unknown) {
      sent.headers[name.toLowerCase()] = value;
    },
    end(text: string) {
      sent.body = JSON.parse(text);
    },
  };
  return { res: res as unknown as Response, sent };
}

const handle = (error: unknown) => {
  const { res, sent } = capture();
  errorHandler(error, {} as Request, res, () => {});
  return sent;
};

describe('errorHandler: errors of lower layers become catalogue errors', () => {
  afterEach(() => vi.restoreAllMocks());

  it("maps the store's StateWriteFailed to the catalogue's STATE_WRITE_FAILED (503)", () => {
    const sent = handle(new StateWriteFailed({ cause: new Error('disk full') }));
    expect(sent.status).toBe(503);
    expect(sent.body).toEqual({
      result: 'error',
      code: 'STATE_WRITE_FAILED',
      msg: 'The change could not be saved; the mock server stopped accepting writes.',
    });
    expect(sent.headers['content-type']).toBe('application/json');
  });

  it('passes catalogue errors through unchanged', () => {
    const sent = handle(badRequest('Invalid thing'));
    expect(sent).toMatchObject({ status: 400, body: { result: 'error', code: 'BAD_REQUEST', msg: 'Invalid thing' } });
  });

  it('answers anything unforeseen with 500 and logs it as a bug', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const sent = handle(new TypeError('boom'));
    expect(sent).toMatchObject({ status: 500, body: { result: 'error', code: 'INTERNAL_SERVER_ERROR' } });
    expect(log).toHaveBeenCalledOnce();
  });
});

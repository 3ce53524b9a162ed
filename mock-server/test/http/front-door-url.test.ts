import { parse as parseQuery } from 'node:querystring';
import express from 'express';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { urlParts } from '../../src/http/exchange.js';

/**
 * The API's front door (http/front-door.ts) reads a request-target's path and query itself, where express did
 * (`req.path`, `req.query` with the "simple" parser): both must come out the same for any target, or a request
 * would reach another route, or other parameters, than before express left the API's path.
 */
const app = express();
app.set('query parser', 'simple');

/**
 * What express read of a target. A target without a path (refused by the parser, or with none) is left to express by
 * the front door as it is, so only its path is compared.
 */
function viaExpress(url: string): { path: string | null; query: unknown } {
  // express's request prototype of this app: `path` and `query` are getters reading `url`.
  const req = Object.create(app.request) as express.Request;
  (req as { url: string }).url = url;
  try {
    const path = (req.path as string | undefined) ?? null;
    return { path, query: path === null ? {} : { ...(req.query as object) } };
  } catch {
    return { path: null, query: {} };
  }
}

function viaFrontDoor(url: string): { path: string | null; query: unknown } {
  const { pathname, query } = urlParts(url);
  return { path: pathname, query: pathname === null ? {} : { ...parseQuery(query ?? '') } };
}

describe('the front door reads a request-target as express did', () => {
  it.each([
    '/api/v1/streams',
    '/api/v1/streams?',
    '/api/v1/events?queue_id=1%3Aa&last_event_id=-1',
    '/api/v1/users?a=1&a=2&b',
    '/api/v1/messages?anchor=newest&narrow=%5B%5D#top',
    '/api/v1/x y?q= 1',
    '/api/v1/tab\there?\tx=1',
    '/api/v1/a?b?c=d',
    'http://localhost:9991/api/v1/streams?x=1',
    'HTTP://LOCALHOST/api/v1/streams',
    '*',
    '/api/v1/%E2%82%AC?%E2%82%AC=%E2%82%AC',
    '/api/v1/\u00a0?x=\ufeff',
    'a://\f@ /api/v1/streams',
  ])('%j', (url) => {
    expect(viaFrontDoor(url)).toEqual(viaExpress(url));
  });

  it('for any target made of the characters that decide the parse', () => {
    const alphabet = ['/', '?', '#', '&', '=', '%', '2', '0', 'a', ' ', '\t', '\n', '\r', '\f', '\u00a0', '\ufeff', ':', '@', '.', '+'];
    const target = fc.tuple(
      fc.constantFrom('/', '/api/v1/', 'http://h/', '//', 'a'),
      fc.array(fc.constantFrom(...alphabet), { maxLength: 24 }),
    );
    fc.assert(
      fc.property(target, ([head, tail]) => {
        const url = head + tail.join('');
        expect(viaFrontDoor(url)).toEqual(viaExpress(url));
      }),
      { numRuns: 2000 },
    );
  });
});

import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { Clock } from '../../src/clock/clock.js';
import { DEMO_REALM_EPOCH } from '../../src/fixtures/demo-realm.js';
import type { OperationSpec } from '../../src/http/openapi.js';
import { JOURNAL_BODY_BUDGET, RequestJournal } from '../../src/http/request-journal.js';
import type { Store } from '../../src/store/store.js';

/**
 * The request journal's ring (http/request-journal.ts) fed fake requests and answers: its bound, what it fills
 * when an answer ends, its budget of kept bodies, and how the store's realm changes empty it.
 */

/** A journal of its own (`capacity` entries) fed fake requests, with the store's watchers it registered. */
function fakeJournal(capacity: number) {
  const watchers: ((change: { table: string | null; realm: string }) => void)[] = [];
  const store = { watch: (w: (typeof watchers)[number]) => watchers.push(w) } as unknown as Store;
  const journal = new RequestJournal(store, new Clock('frozen', DEMO_REALM_EPOCH), capacity);
  const op = { operationId: 'get-own-user', path: '/api/v1/users/me', params: [] } as unknown as OperationSpec;
  const responses: (EventEmitter & { statusCode: number; writableFinished: boolean; locals: Record<string, unknown> })[] = [];
  const record = (n: number, bodyBytes = 0) => {
    const headers = bodyBytes === 0 ? {} : { 'content-length': String(bodyBytes) };
    const req = { method: 'GET', originalUrl: `/api/v1/users/me?n=${n}`, headers, form: bodyBytes === 0 ? {} : { field: String(n) } };
    const res = Object.assign(new EventEmitter(), { statusCode: 200, writableFinished: true, locals: {} });
    responses.push(res);
    journal.record(op, null, 'r', req as unknown as Request, res as unknown as Response, {});
  };
  const shown = () => journal.list('r').map((r) => journal.present(r));
  return { journal, watchers, responses, record, shown };
}

describe('the ring', () => {
  it('overwrites the oldest once full, and fills status, time and the injected fault when the answer ends', () => {
    const { journal, watchers, responses, record, shown } = fakeJournal(3);
    for (let n = 1; n <= 5; n++) record(n);
    expect(shown().map((e) => e.params.n)).toEqual(['3', '4', '5']);
    expect(shown().map((e) => e.status)).toEqual([null, null, null]);

    responses[4]!.locals.injected = 'rate_limit';
    responses[4]!.statusCode = 429;
    responses[4]!.emit('close');
    responses[3]!.writableFinished = false; // the client went away first
    responses[3]!.emit('close');
    expect(shown().map((e) => [e.status, e.injected, typeof e.ms])).toEqual([
      [null, null, 'object'],
      [null, null, 'number'],
      [429, 'rate_limit', 'number'],
    ]);

    // Answers of requests the ring no longer holds change nothing of the ones it holds.
    for (const gone of responses.slice(0, 2)) {
      gone.statusCode = 500;
      gone.emit('close');
    }
    expect(shown().map((e) => e.status)).toEqual([null, null, 429]);
    // The oldest request still kept is finished in its own place.
    responses[2]!.statusCode = 201;
    responses[2]!.emit('close');
    expect(shown().map((e) => e.status)).toEqual([201, null, 429]);

    watchers.forEach((w) => w({ table: 'users', realm: 'r' }));
    expect(journal.list('r')).toHaveLength(3);
    watchers.forEach((w) => w({ table: null, realm: 'r' }));
    expect(journal.list('r')).toEqual([]);
  });

  it('keeps what was sent as it was then, holding none of the request objects (they change or go; the ring stays)', () => {
    const { journal } = fakeJournal(3);
    const op = { operationId: 'send-message', path: '/api/v1/messages', params: [] } as unknown as OperationSpec;
    const headers: Record<string, string> = { 'content-length': '9', 'x-app': 'é€😀' };
    const form: Record<string, string> = { content: 'hello 😀' };
    const req = { method: 'POST', originalUrl: '/api/v1/messages?x=1', headers, form };
    const res = Object.assign(new EventEmitter(), { statusCode: 200, writableFinished: true, locals: {} });
    journal.record(op, null, 'r', req as unknown as Request, res as unknown as Response, { id: '7' });
    headers['x-app'] = 'changed';
    form.content = 'changed';
    req.originalUrl = '/changed';
    const [shown] = journal.list('r').map((r) => journal.present(r));
    expect(shown).toMatchObject({ path: '/api/v1/messages', params: { id: '7', x: '1', content: 'hello 😀' } });
    expect(shown!.headers['x-app']).toBe('é€😀');
  });

  it("an answer that ends after its realm's reset leaves the new history alone", () => {
    const { journal, watchers, responses, record, shown } = fakeJournal(3);
    record(1);
    watchers.forEach((w) => w({ table: null, realm: 'r' }));
    record(2);
    responses[0]!.statusCode = 500;
    responses[0]!.emit('close');
    expect(shown().map((e) => [e.params.n, e.status])).toEqual([['2', null]]);
    responses[1]!.emit('close');
    expect(journal.list('r').map((e) => e.status)).toEqual([200]);
  });

  it("keeps bodies up to the realm's budget; entries beyond it keep a note until older bodies leave the ring", () => {
    const { record, shown } = fakeJournal(300);
    const size = 60 * 1024;
    const fit = Math.floor(JOURNAL_BODY_BUDGET / size);
    for (let n = 1; n <= fit + 2; n++) record(n, size);
    const notes = shown().map((e) => e.note);
    expect(notes.slice(0, fit)).toEqual(Array.from({ length: fit }, () => null));
    expect(notes.slice(fit)).toEqual(
      [1, 2].map(() => `not kept: the realm's journal holds ${JOURNAL_BODY_BUDGET} bytes of bodies already`),
    );
    expect(shown()[0]!.params).toEqual({ n: '1', field: '1' });
    expect(shown()[fit]!.params).toEqual({ n: String(fit + 1) }); // the query's, not the body's
    // Once the kept bodies have left the ring, bodies are kept again.
    for (let n = 0; n < 300; n++) record(1000 + n);
    record(2000, size);
    expect(shown().at(-1)).toMatchObject({ params: { n: '2000', field: '2000' }, note: null });
  });
});

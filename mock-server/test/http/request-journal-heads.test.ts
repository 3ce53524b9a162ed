import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { Clock } from '../../src/clock/clock.js';
import { DEMO_REALM_EPOCH } from '../../src/fixtures/demo-realm.js';
import type { OperationSpec } from '../../src/http/openapi.js';
import { JOURNAL_BODY_BUDGET, JOURNAL_CAPACITY, RequestJournal } from '../../src/http/request-journal.js';
import type { Store } from '../../src/store/store.js';

/**
 * A request's head may be 64 KiB (long query strings, http/server.ts): the journal's byte budget covers heads as
 * it covers bodies, so a full ring of long GETs holds the budget, not 1,000 × 64 KiB.
 */
/** A journal of its own, fed JOURNAL_CAPACITY requests of one operation, request n as `sent(n)` makes it. */
function filledJournal(
  operationId: string,
  sent: (n: number) => { method: string; originalUrl: string; headers: Record<string, string>; form: Record<string, string> },
) {
  const store = { watch: () => undefined } as unknown as Store;
  const journal = new RequestJournal(store, new Clock('frozen', DEMO_REALM_EPOCH));
  const op = { operationId, path: '/api/v1/messages', params: [] } as unknown as OperationSpec;
  for (let n = 0; n < JOURNAL_CAPACITY; n++) {
    const res = Object.assign(new EventEmitter(), { statusCode: 200, writableFinished: true, locals: {} });
    journal.record(op, null, 'r', sent(n) as unknown as Request, res as unknown as Response, {});
  }
  return journal;
}

describe("the journal's budget covers request heads", () => {
  it('long queries and headers are kept up to the budget; beyond it an entry keeps its path and a note', () => {
    const narrow = 'n'.repeat(30 * 1024);
    const journal = filledJournal('get-messages', (n) => ({
      method: 'GET',
      originalUrl: `/api/v1/messages?narrow=${narrow}&n=${n}`,
      headers: { 'x-junk': narrow },
      form: {},
    }));
    const entries = journal.list('r').map((r) => r.sent());
    const kept = entries.reduce((sum, e) => sum + e.url.length + String(e.headers['x-junk'] ?? '').length, 0);
    expect(kept).toBeLessThanOrEqual(JOURNAL_BODY_BUDGET);
    // What holds them outside the heap: the kept texts, their JSON punctuation and a few pages' slack.
    expect(journal.storedBytes('r')).toBeGreaterThan(kept);
    expect(journal.storedBytes('r')).toBeLessThanOrEqual(JOURNAL_BODY_BUDGET + 512 * 1024);
    const shown = journal.list('r').map((r) => journal.present(r));
    expect(shown[0]).toMatchObject({ path: '/api/v1/messages', params: { n: '0' }, note: null });
    expect(shown[0]!.headers['x-junk']).toBe(narrow);
    expect(shown.at(-1)).toMatchObject({
      path: '/api/v1/messages',
      params: {},
      headers: {},
      note: `query, headers and body not kept: the realm's journal holds ${JOURNAL_BODY_BUDGET} bytes already`,
    });
  });

  it('path values of entries beyond the budget are cut as their path is, so escaping them cannot outgrow it', () => {
    const email = '\u0001'.repeat(21_000);
    const store = { watch: () => undefined } as unknown as Store;
    const journal = new RequestJournal(store, new Clock('frozen', DEMO_REALM_EPOCH));
    const op = { operationId: 'get-user-by-email', path: '/api/v1/users/{email}', params: [] } as unknown as OperationSpec;
    const originalUrl = `/api/v1/users/${'%01'.repeat(21_000)}`;
    for (let n = 0; n < JOURNAL_CAPACITY; n++) {
      const res = Object.assign(new EventEmitter(), { statusCode: 200, writableFinished: true, locals: {} });
      const req = { method: 'GET', originalUrl, headers: {}, form: {} };
      journal.record(op, null, 'r', req as unknown as Request, res as unknown as Response, { email });
    }
    const shown = journal.list('r').map((r) => journal.present(r));
    expect(shown[0]!.params.email).toBe(email);
    expect(shown.at(-1)!.note).toMatch(/not kept/);
    expect(shown.at(-1)!.params.email).toBe(email.slice(0, 256));
    // The budget, then per entry its cut path (1 KiB) and path value (256 characters, 6 bytes each escaped).
    expect(journal.storedBytes('r')).toBeLessThanOrEqual(JOURNAL_BODY_BUDGET + JOURNAL_CAPACITY * 3 * 1024);
  });

  it('bodies that take more room than they count (control characters, escaped in 6 bytes) still hold no more than the budget', () => {
    const content = '\u0001'.repeat(60 * 1024);
    const journal = filledJournal('send-message', () => ({
      method: 'POST',
      originalUrl: '/api/v1/messages',
      headers: { 'content-length': String(content.length + 8) },
      form: { content },
    }));
    // Each kept body is ~360 KiB of text: about 22 fit; the others keep a note.
    const shown = journal.list('r').map((r) => journal.present(r));
    const kept = shown.filter((e) => e.note === null);
    expect(kept.length).toBeGreaterThan(15);
    expect(kept.length).toBeLessThan(30);
    expect(kept[0]!.params.content).toBe(content);
    expect(journal.storedBytes('r')).toBeLessThanOrEqual(JOURNAL_BODY_BUDGET + 512 * 1024);
  });
});

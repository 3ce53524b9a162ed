import { describe, expect, it } from 'vitest';
import { ExchangeLog, type Exchange } from '../../src/inspector/exchange-log.js';
import { viewOf } from '../../src/inspector/view.js';

/**
 * The inspector's ring buffer and its redacting view (inspector/capture.ts, view.ts): bounded whatever the
 * traffic, and no credential shown, even in a body cut at the cap where it is no longer JSON.
 */
const exchange = (over: Partial<Exchange> = {}): Omit<Exchange, 'id'> => ({
  at: 0,
  method: 'GET',
  path: '/api/v1/users/me',
  realm: 'demo',
  user: 'a@b.test',
  status: 200,
  ms: 1,
  code: null,
  msg: null,
  validation: false,
  var_name: null,
  injected: null,
  query: '',
  requestType: null,
  requestBody: { text: null, length: 0 },
  responseType: 'application/json',
  responseBody: { text: '{}', length: 2 },
  ...over,
});

describe('ExchangeLog', () => {
  it('keeps the last `capacity` exchanges, oldest first, and forgets the rest', () => {
    const log = new ExchangeLog(3, 100);
    for (let i = 1; i <= 5; i++) log.add(exchange({ path: `/p${i}` }));
    expect(log.recent().map((x) => [x.id, x.path])).toEqual([
      [3, '/p3'],
      [4, '/p4'],
      [5, '/p5'],
    ]);
    expect(log.get(2)).toBeUndefined();
    expect(log.get(5)?.path).toBe('/p5');
    expect(log.get(0)).toBeUndefined();
    expect(log.get(Number.NaN)).toBeUndefined();
  });

  it('reads back bodies as sent, and holds no more than its bodies once full', () => {
    const log = new ExchangeLog(50, 1000);
    // 4 + 1,000 × 3 bytes of UTF-8 each way: every body crosses a page of the log.
    const body = (i: number) => `${i}€`.padEnd(1000, 'é€');
    for (let i = 1; i <= 500; i++) {
      log.add(exchange({ path: `/p${i}`, requestBody: { text: body(i), length: 5000 }, responseBody: { text: body(-i), length: 1000 } }));
    }
    expect(log.get(451)).toMatchObject({
      path: '/p451',
      requestBody: { text: body(451), length: 5000 },
      responseBody: { text: body(-451) },
    });
    expect(log.get(500)?.responseBody.text).toBe(body(-500));
    expect(log.get(450)).toBeUndefined();
    // 50 exchanges × 2 bodies of at most ~3 KB, their heads, and the log's partly filled and spare pages.
    const bodies = 50 * 2 * Buffer.byteLength(body(500));
    expect(log.storedBytes).toBeGreaterThan(bodies);
    expect(log.storedBytes).toBeLessThan(bodies + 6 * 64 * 1024);
  });

  it('tells each listener until it unsubscribes, and clear() frees everything', () => {
    const log = new ExchangeLog(3, 100);
    const heard: string[] = [];
    const stop = log.onExchange((x) => heard.push(x.path));
    log.add(exchange({ path: '/a' }));
    stop();
    log.add(exchange({ path: '/b' }));
    expect(heard).toEqual(['/a']);
    log.clear();
    expect(log.recent()).toEqual([]);
    // An answer ending during shutdown, after the clear, is kept and read back.
    log.add(exchange({ path: '/c', responseBody: { text: 'late', length: 4 } }));
    expect(log.recent().map((x) => x.path)).toEqual(['/c']);
    expect(log.get(log.recent()[0]!.id)?.responseBody.text).toBe('late');
  });
});

describe('viewOf', () => {
  it('redacts credentials by name in JSON bodies, forms and the query', () => {
    const whole = (value: unknown) => ({ text: JSON.stringify(value), length: JSON.stringify(value).length });
    const view = viewOf({
      ...exchange({
        query: 'api_key=SECRET1&anchor=newest',
        requestBody: whole({ password: 'SECRET2', username: 'a@b.test' }),
        responseBody: whole({ result: 'success', api_key: 'SECRET3', nested: [{ key: 'SECRET4' }] }),
      }),
      id: 1,
    });
    expect(view.response.truncated).toBe(false);
    expect(JSON.stringify(view)).not.toMatch(/SECRET/);
    expect(view.query).toEqual({ api_key: '[redacted]', anchor: 'newest' });
    expect(view.response.text).toContain('"api_key": "[redacted]"');
  });

  it('redacts a credential in a body cut at the cap, up to the cut', () => {
    const full = JSON.stringify({ members: [{ email: 'a@b.test', api_key: 'SECRETKEY-LONG-VALUE' }] });
    const cut = full.slice(0, full.indexOf('SECRETKEY') + 6);
    const view = viewOf({ ...exchange({ responseBody: { text: cut, length: full.length } }), id: 1 });
    expect(view.response.truncated).toBe(true);
    expect(view.response.text).not.toContain('SECRET');
    expect(view.response.text).toContain('"api_key":"[redacted]"');
    const form = viewOf({ ...exchange({ requestBody: { text: 'username=a&password=hunter2&x', length: 100 } }), id: 1 });
    expect(form.request.text).toBe('username=a&password=[redacted]&x');
  });

  it('finds a secret name in any case or spelling, in whole bodies, cut ones and the query', () => {
    const query = viewOf({ ...exchange({ query: 'apiKey=SECRET1&API-KEY=SECRET2&access_token=SECRET3&keys=kept' }), id: 1 });
    expect(query.query).toEqual({ apiKey: '[redacted]', 'API-KEY': '[redacted]', access_token: '[redacted]', keys: 'kept' });
    const full = JSON.stringify({ a: 'kept', apiKey: 'SECRET4', nested: { 'X-Api-Key': 'SECRET5', newPassword: 'SECRET6-LONG' } });
    const cut = full.slice(0, full.indexOf('SECRET6') + 4);
    const text = viewOf({ ...exchange({ responseBody: { text: cut, length: full.length } }), id: 1 }).response.text!;
    expect(text).not.toContain('SECRET');
    expect(text).toContain('"a":"kept"');
    const form = viewOf({ ...exchange({ requestBody: { text: 'Api_Key=SECRET7&api%5Fkey=SECRET8&x=kept', length: 100 } }), id: 1 });
    expect(form.request.text).toBe('Api_Key=[redacted]&api%5Fkey=[redacted]&x=kept');
  });
});

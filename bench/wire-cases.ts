import { Faker, en } from '@faker-js/faker';
import {
  basic,
  deepArray,
  FORM_TYPE,
  form,
  httpRequest,
  JSON_TYPE,
  multipart,
  searchNarrow,
  type Account,
  type RequestParts,
} from './hostile-requests.js';

/**
 * The cases of the seeded wire-level fuzzer (run and judged by bench/wire-fuzz.ts): malformed and truncated
 * multipart, JSON and form bodies, bodies and request heads that stop, odd headers, deep JSON in JSON parameters,
 * huge search narrows, foreign Host and Origin headers, as raw request bytes. A case depends only on the seed and
 * the accounts given (never on an answer), so a failure printed with its seed and case number replays.
 */

export interface WireCase {
  n: number;
  /** What the case is, in words (printed with a failure). */
  name: string;
  chunks: Buffer[];
  /** The body stops before its declared length: no answer within the case's time is acceptable. */
  stops: boolean;
}

export interface FuzzAccounts {
  member: Account;
  guest: Account;
}

const API_PATHS = ['/api/v1/messages', '/api/v1/user_uploads', '/api/v1/server_settings', '/api/v1/users/me/subscriptions'];
const CONTROL_PATHS = [
  '/__mock/realms',
  '/__mock/realms/demo/events',
  '/__mock/realms/demo/snapshots',
  '/__mock/realms/demo/clock/advance',
];
const JSON_PARAMS = ['narrow', 'to', 'subscriptions', 'principals', 'event', 'user_ids', 'messages'];
const FOREIGN = ['evil.example', 'evil.example:80', 'attacker.test:9991', '203.0.113.9', '[2001:db8::1]:9991', 'localhost.evil.example'];

export class WireFuzz {
  readonly #random: () => number;
  #n = 0;

  constructor(
    readonly seed: number,
    readonly url: string,
    readonly accounts: FuzzAccounts,
  ) {
    // Seeded as the request fuzzer is (bench/fuzz-requests.ts): the same seed gives the same cases everywhere.
    const faker = new Faker({ locale: [en] });
    faker.seed(seed);
    this.#random = () => faker.number.float();
  }

  #int(min: number, max: number): number {
    return min + Math.floor(this.#random() * (max - min + 1));
  }

  #pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.#random() * items.length)]!;
  }

  #auth(): [string, string][] {
    const roll = this.#random();
    if (roll < 0.3) return [];
    if (roll < 0.6) return [basic(this.accounts.member)];
    if (roll < 0.8) return [basic(this.accounts.guest)];
    return [['Authorization', this.#pick(['Basic', 'Basic !!!', `Basic ${'QUFB'.repeat(5000)}`, 'Bearer x', 'Basic /w=='])]];
  }

  #request(parts: RequestParts): Buffer {
    return httpRequest(this.url, parts);
  }

  #case(name: string, chunks: Buffer[], stops = false): WireCase {
    return { n: ++this.#n, name, chunks, stops };
  }

  /** The next case. */
  next(): WireCase {
    const kinds = [
      () => this.#multipart(),
      () => this.#json(),
      () => this.#form(),
      () => this.#stoppedBody(),
      () => this.#oddHeaders(),
      () => this.#narrow(),
      () => this.#foreign(),
    ];
    return this.#pick(kinds)();
  }

  #multipart(): WireCase {
    const path = this.#pick([...API_PATHS, ...CONTROL_PATHS]);
    const boundary = this.#pick(['X', 'b0undary', '-'.repeat(70), 'a b', '"quoted"']);
    const file = {
      name: 'f',
      filename: this.#pick(['a.txt', '../../etc/passwd', '', 'ä'.repeat(300)]),
      content: 'abc'.repeat(this.#int(0, 2000)),
    };
    const fields = Array.from({ length: this.#int(0, 3) }, (_, i) => ({
      name: `field${i}`,
      content: this.#pick(['1', '[[[', deepArray(5000)]),
    }));
    const { body, type } = multipart(boundary, this.#random() < 0.5 ? [file, ...fields] : [...fields, file]);
    const variant = this.#pick(['cut', 'cut', 'no-boundary-param', 'other-boundary', 'garbage-part-head', 'many-parts']);
    let sent: Buffer = body;
    let contentType = type;
    if (variant === 'cut') sent = body.subarray(0, this.#int(0, body.length - 1));
    if (variant === 'no-boundary-param') contentType = ['Content-Type', 'multipart/form-data'];
    if (variant === 'other-boundary') contentType = ['Content-Type', 'multipart/form-data; boundary=Y'];
    if (variant === 'garbage-part-head')
      sent = Buffer.from(`--${boundary}\r\n\u0000\u00ff: ${'x'.repeat(20_000)}\r\n\r\nabc\r\n--${boundary}--\r\n`, 'latin1');
    if (variant === 'many-parts')
      sent = multipart(
        boundary,
        Array.from({ length: 5000 }, (_, i) => ({ name: `p${i}`, content: 'v' })),
      ).body;
    const request = this.#request({ method: 'POST', path, headers: [contentType, ...this.#auth()], body: sent });
    return this.#case(`multipart ${variant} (${sent.length} bytes) to POST ${path}`, [request]);
  }

  #json(): WireCase {
    const path = this.#pick([...CONTROL_PATHS, '/api/v1/messages']);
    const body = this.#pick([
      '{"realm_id":',
      '{"event":{"type":"x","deep":' + deepArray(this.#int(1000, 50_000)) + '}}',
      deepArray(this.#int(10_000, 200_000)),
      '{"seconds":1e400}',
      '{"name":"' + 'n'.repeat(this.#int(1000, 100_000)) + '"}',
      '\u00ff\u00fe{"a":1}',
      '{"a":"\\ud800"}',
      '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}',
      'null',
      '',
    ]);
    const type: [string, string] = this.#pick([
      JSON_TYPE,
      ['Content-Type', 'application/json; charset=utf-7'],
      ['Content-Type', 'text/plain'],
      ['Content-Type', 'application/merge-patch+json'],
    ]);
    const request = this.#request({ method: 'POST', path, headers: [type, ...this.#auth()], body: Buffer.from(body, 'latin1') });
    return this.#case(`json ${type[1]} ${body.length} bytes (${JSON.stringify(body.slice(0, 40))}) to POST ${path}`, [request]);
  }

  #form(): WireCase {
    const param = this.#pick(JSON_PARAMS);
    const value = this.#pick([deepArray(this.#int(1000, 100_000)), `{"a":${deepArray(this.#int(1000, 20_000))}}`, '[[[[', '"\\u0000"']);
    const raw = this.#pick([
      form({ [param]: value }),
      `${param}=%`,
      `${param}=%G1%ZZ&${param}=%C3`,
      `${'k'.repeat(this.#int(1000, 200_000))}=v`,
      Array.from({ length: this.#int(1000, 30_000) }, (_, i) => `a${i}=1`).join('&'),
      `${param}=${'%FF'.repeat(1000)}`,
    ]);
    const method = this.#pick(['POST', 'GET', 'PATCH']);
    const path = this.#pick([...API_PATHS, ...CONTROL_PATHS, '/api/v1/register', '/api/v1/messages/render']);
    const request = this.#request({ method, path, headers: [FORM_TYPE, ...this.#auth()], body: raw });
    return this.#case(`form ${raw.length} bytes (${JSON.stringify(raw.slice(0, 40))}) to ${method} ${path}`, [request]);
  }

  #stoppedBody(): WireCase {
    if (this.#random() < 0.2) {
      // A request head that stops (slowloris): the server must not wait on it at others' expense.
      const head = this.#request({ method: 'GET', path: '/api/v1/messages', headers: this.#auth() });
      const cut = head.subarray(0, this.#int(1, head.length - 4));
      return this.#case(`request head that stops after ${cut.length} of ${head.length} bytes`, [cut], true);
    }
    const path = this.#pick(['/api/v1/user_uploads', '/api/v1/messages', '/__mock/realms']);
    const declared = this.#int(10, 20 * 1024 * 1024);
    const sent = Math.min(declared - 1, this.#int(0, 64 * 1024));
    const type = this.#pick<[string, string]>([FORM_TYPE, JSON_TYPE, ['Content-Type', 'multipart/form-data; boundary=X']]);
    const head = this.#request({ method: 'POST', path, headers: [type, ...this.#auth()], contentLength: declared });
    const body = Buffer.from(`--X\r\nContent-Disposition: form-data; name="f"; filename="a"\r\n\r\n${'z'.repeat(sent)}`).subarray(0, sent);
    return this.#case(`body that stops: ${sent} of ${declared} bytes to POST ${path} [${type[1]}]`, [head, body], true);
  }

  #oddHeaders(): WireCase {
    const path = this.#pick(API_PATHS);
    const auth = this.#auth();
    const variants: [string, () => Buffer][] = [
      ['huge header', () => this.#request({ method: 'GET', path, headers: [['X-Big', 'b'.repeat(this.#int(60_000, 120_000))], ...auth] })],
      [
        'many headers',
        () =>
          this.#request({
            method: 'GET',
            path,
            headers: [...Array.from({ length: 3000 }, (_, i): [string, string] => [`X-H${i}`, 'v']), ...auth],
          }),
      ],
      [
        'two Content-Lengths',
        () => this.#request({ method: 'POST', path, headers: [FORM_TYPE, ['Content-Length', '3'], ...auth], body: 'a=1&b=2' }),
      ],
      [
        'bad Content-Length',
        () =>
          this.#request({ method: 'POST', path, headers: [FORM_TYPE, ...auth], body: 'a=1', contentLength: this.#pick([-1, 1e30, NaN]) }),
      ],
      [
        'Content-Length and chunked',
        () =>
          this.#request({
            method: 'POST',
            path,
            headers: [FORM_TYPE, ['Transfer-Encoding', 'chunked'], ...auth],
            body: '3\r\na=1\r\n0\r\n\r\n',
          }),
      ],
      [
        'unknown transfer-encoding',
        () =>
          this.#request({
            method: 'POST',
            path,
            headers: [FORM_TYPE, ['Transfer-Encoding', this.#pick(['xchunked', 'chunked, gzip', 'gzip'])], ...auth],
            body: 'a=1',
            contentLength: null,
          }),
      ],
      [
        'bad chunk size',
        () =>
          this.#request({
            method: 'POST',
            path,
            headers: [FORM_TYPE, ['Transfer-Encoding', 'chunked'], ...auth],
            body: 'zz\r\na=1\r\n0\r\n\r\n',
            contentLength: null,
          }),
      ],
      [
        'gzip that is not',
        () => this.#request({ method: 'POST', path, headers: [FORM_TYPE, ['Content-Encoding', 'gzip'], ...auth], body: 'a=1' }),
      ],
      [
        'odd content type',
        () =>
          this.#request({
            method: 'POST',
            path,
            headers: [
              [
                'Content-Type',
                this.#pick(['', ';;;', 'multipart/form-data; boundary=', 'application/x-www-form-urlencoded; charset=ebcdic']),
              ],
              ...auth,
            ],
            body: 'a=1',
          }),
      ],
      ['no Host', () => this.#request({ method: 'GET', path, host: null, headers: auth })],
      ['obsolete line folding', () => Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${new URL(this.url).host}\r\nX-A: 1\r\n  folded\r\n\r\n`)],
      ['NUL in the path', () => Buffer.from(`GET ${path}\u0000x HTTP/1.1\r\nHost: ${new URL(this.url).host}\r\n\r\n`, 'latin1')],
    ];
    const [name, build] = this.#pick(variants);
    return this.#case(`${name} on ${path}`, [build()]);
  }

  #narrow(): WireCase {
    const who = this.#random() < 0.5 ? this.accounts.guest : this.accounts.member;
    const narrow = this.#pick([
      () => searchNarrow(this.#int(1000, 60_000)),
      () => searchNarrow(1, this.#int(5000, 30_000)),
      () => JSON.stringify(Array.from({ length: this.#int(500, 5000) }, () => ({ operator: 'search', operand: 'a' }))),
      () =>
        JSON.stringify([{ operator: 'search', operand: this.#pick(['(((', '\\', '[a-', '(?<x>', 'a{99999}', '\u{1F600}'.repeat(5000)]) }]),
      () => JSON.stringify([{ operator: 'topic', operand: 't'.repeat(this.#int(10_000, 100_000)) }]),
    ])();
    const body = form({ narrow, anchor: 'newest', num_before: '20', num_after: '0' });
    const request = this.#request({ method: 'GET', path: '/api/v1/messages', headers: [FORM_TYPE, basic(who)], body });
    return this.#case(`narrow of ${narrow.length} chars (${JSON.stringify(narrow.slice(0, 60))}) as ${who.email}`, [request]);
  }

  #foreign(): WireCase {
    const host = this.#pick([...FOREIGN, null]);
    const origin: [string, string][] =
      this.#random() < 0.7 ? [['Origin', this.#pick(['http://evil.example', 'null', 'http://localhost.evil.example'])]] : [];
    const get = this.#random() < 0.4;
    const path = get
      ? this.#pick(['/__mock/realms/demo/credentials', '/__mock/realms', '/__inspector/exchanges/1'])
      : this.#pick(CONTROL_PATHS);
    const type = this.#pick<[string, string]>([FORM_TYPE, ['Content-Type', 'text/plain'], JSON_TYPE]);
    const parts: RequestParts = get
      ? { method: 'GET', path, host: host ?? undefined, headers: origin }
      : {
          method: 'POST',
          path,
          host: host ?? undefined,
          headers: [type, ...origin],
          body: type === FORM_TYPE ? 'realm_id=x&seconds=86400&name=evil' : '{"realm_id":"x"}',
        };
    return this.#case(`foreign Host ${host ?? '(own)'} ${origin[0]?.[1] ?? ''} ${parts.method} ${path} [${get ? '' : type[1]}]`, [
      this.#request(parts),
    ]);
  }
}

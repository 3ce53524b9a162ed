import { Faker, en } from '@faker-js/faker';
import { request } from 'undici';
import { loadOperations, type OperationSpec, type ParamSpec } from '../mock-server/src/http/openapi.js';

/**
 * Seeded, schema-derived fuzz requests for the soak benchmark and its short version in `npm test`:
 * every operation of openapi/team-chat.openapi.yaml with valid-ish and malformed values
 * (missing, odd-typed, huge, broken JSON, odd strings), odd body encodings, unknown paths and
 * methods, and bad credentials. The same seed gives the same requests, so a 5xx found by a run can be
 * replayed: the requests never depend on earlier answers, only on the seed and the realm's world.
 */

export interface Who {
  email: string;
  api_key?: string;
}

/** What a fuzz request may name: the accounts and IDs of the realm under test (its world file). */
export interface FuzzWorld {
  credentials: Record<string, Who>;
  channels: Record<string, { stream_id: number; name: string }>;
  messages?: Record<string, { id?: number }>;
  user_groups?: Record<string, unknown>;
}

export interface FuzzRequest {
  n: number;
  method: string;
  /** Path and query string. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface FuzzAnswer {
  status: number;
  /** The start of the answer, or the transport error. */
  text: string;
}

/** A one-line description, for reports of 5xx answers; long values are shortened. */
export function describeRequest(r: FuzzRequest): string {
  const cut = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}…(${s.length} chars)` : s);
  const type = r.headers['content-type'] ? ` [${r.headers['content-type'].split(';')[0]}]` : '';
  return `#${r.n} ${r.method} ${cut(r.path)}${type}${r.body === undefined ? '' : ` body=${JSON.stringify(cut(r.body))}`} auth=${JSON.stringify(r.headers.authorization ?? null)}`;
}

export async function sendFuzz(baseUrl: string, r: FuzzRequest): Promise<FuzzAnswer> {
  try {
    const res = await request(baseUrl + r.path, {
      method: r.method as 'GET',
      headers: r.headers,
      body: r.body,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    const text = await res.body.text();
    return { status: res.statusCode, text: text.slice(0, 500) };
  } catch (e) {
    // A dropped connection or a hung answer is a failure of the server as much as a 5xx.
    return { status: 0, text: `transport error: ${(e as Error).message}` };
  }
}

const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;

/** Wire texts no well-formed client sends: each must get a clear 4xx, never a 500. */
const ODD_TEXTS = [
  '',
  ' ',
  '\t\n',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '0',
  '-0',
  '1.5',
  '1e308',
  '-1e309',
  '1e-400',
  '99999999999999999999999999999',
  '9007199254740993',
  '0x10',
  '007',
  'true',
  'false',
  '"quoted"',
  '[',
  ']',
  '{',
  '}',
  '[1,2',
  '{"a":',
  '[]',
  '{}',
  '[null]',
  '[[]]',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{}}}',
  '[1,"2",true,null,{}]',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '\u202egnp.exe',
  '𝕳𝖊𝖑𝖑𝖔 👩‍👩‍👧‍👦',
  'ﷺ',
  '%',
  '%zz',
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${7*7}',
  '{{7*7}}',
  '\\',
  '/',
  '#',
  '?',
  '&',
  '=',
  '+',
];

export class FuzzGenerator {
  private readonly faker: Faker;
  private n = 0;

  private constructor(
    private readonly operations: OperationSpec[],
    seed: number,
  ) {
    this.faker = new Faker({ locale: [en] });
    this.faker.seed(seed);
  }

  /** Reads the operations of the OpenAPI document (a second or two: do it once per run). */
  static async create(seed: number, operations?: OperationSpec[]): Promise<FuzzGenerator> {
    return new FuzzGenerator(operations ?? (await loadOperations()), seed);
  }

  get operationCount(): number {
    return this.operations.length;
  }

  /** The next request against a realm described by `world`. */
  next(world: FuzzWorld): FuzzRequest {
    const f = this.faker;
    const n = ++this.n;
    const headers: Record<string, string> = { ...this.credentials(world) };
    const roll = f.number.float();
    if (roll < 0.04) return { n, method: f.helpers.arrayElement(METHODS), path: this.unknownPath(), headers };
    const op = f.helpers.arrayElement(this.operations);
    // Now and then a method the path does not offer (a 405 or 404, never a 500).
    const method = roll < 0.07 ? f.helpers.arrayElement(METHODS) : op.method;
    const query = new URLSearchParams();
    const body: [string, string][] = [];
    let path = op.path;
    for (const p of op.params) {
      if (p.in === 'path') {
        path = path.replace(`{${p.name}}`, this.pathValue(p, world));
        continue;
      }
      if (!f.datatype.boolean({ probability: p.required ? 0.92 : 0.5 })) continue;
      const value = f.datatype.boolean({ probability: 0.75 }) ? this.validText(p, world) : this.oddText(p, world);
      // Body parameters usually go in the body; a client may also send them in the query string.
      const target = p.in === 'query' || method === 'GET' || f.datatype.boolean({ probability: 0.08 }) ? 'query' : 'body';
      const names = f.datatype.boolean({ probability: 0.04 }) && p.aliases.length ? p.aliases : [p.name];
      const put = (name: string, text: string) => {
        if (target === 'query') query.append(name, text);
        else body.push([name, text]);
      };
      for (const name of names) put(name, value);
      // A repeated parameter with another value.
      if (f.datatype.boolean({ probability: 0.03 })) put(p.name, this.oddText(p, world));
    }
    if (f.datatype.boolean({ probability: 0.1 })) body.push([f.lorem.word(), this.odd()]);
    const qs = query.toString();
    const request: FuzzRequest = { n, method, path: qs ? `${path}?${qs}` : path, headers };
    if (body.length > 0 || (method !== 'GET' && f.datatype.boolean({ probability: 0.1 }))) this.encodeBody(request, body);
    return request;
  }

  private credentials(world: FuzzWorld): Record<string, string> {
    const f = this.faker;
    const basic = (user: string, pass: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` });
    const who = f.helpers.arrayElement(Object.values(world.credentials));
    if (f.datatype.boolean({ probability: 0.85 })) return basic(who.email, who.api_key ?? f.string.alphanumeric(32));
    return f.helpers.arrayElement<Record<string, string>>([
      {},
      basic(who.email, f.string.alphanumeric(32)),
      basic(f.internet.email(), who.api_key ?? ''),
      basic('', ''),
      basic(who.email, ''),
      basic(`${who.email}:${who.api_key}`, 'extra'),
      { authorization: 'Basic !!!not-base64!!!' },
      { authorization: 'Basic' },
      { authorization: `Bearer ${f.string.alphanumeric(32)}` },
      { authorization: f.string.sample(40) },
      { authorization: `Basic ${Buffer.from(f.string.sample(30)).toString('base64')}` },
    ]);
  }

  private unknownPath(): string {
    const f = this.faker;
    return f.helpers.arrayElement([
      () => `/api/v1/${f.lorem.word()}`,
      () => `/api/v1/${f.lorem.word()}/${f.number.int(99999)}`,
      () => `/api/v2/messages`,
      () => `/api/v1/messages/${f.number.int(9999)}/${f.lorem.word()}`,
      () => `/api/v1/users/me/${f.lorem.word()}/${f.lorem.word()}`,
      () => `/${f.lorem.word()}`,
      () => `/api/v1//messages`,
      () => `/api/v1/messages/%E0%A4%A`,
      () => `/api/v1/${'a/'.repeat(f.number.int({ min: 10, max: 200 }))}`,
    ])();
  }

  private pathValue(p: ParamSpec, world: FuzzWorld): string {
    const f = this.faker;
    if (f.datatype.boolean({ probability: 0.7 })) return encodeURIComponent(this.validText(p, world));
    // Mostly encoded, sometimes raw (a stray '%' is a malformed URI the router must refuse cleanly).
    const odd = this.odd();
    return f.datatype.boolean({ probability: 0.85 })
      ? encodeURIComponent(odd.replace(/[\ud800-\udfff]/g, '\ufffd'))
      : f.helpers.arrayElement(['%', '%zz', '..', '-1', '1e3', '%2F', '%00']);
  }

  private validText(p: ParamSpec, world: FuzzWorld): string {
    const value = this.valid(p.schema as Record<string, unknown>, world, 0);
    return p.json || typeof value !== 'string' ? JSON.stringify(value) : value;
  }

  private oddText(p: ParamSpec, world: FuzzWorld): string {
    const f = this.faker;
    // Valid JSON of the wrong shape for JSON parameters, odd texts for the rest.
    if (p.json && f.datatype.boolean({ probability: 0.3 })) {
      return JSON.stringify(
        f.helpers.arrayElement([
          { a: 1 },
          [this.valid(p.schema as Record<string, unknown>, world, 0)],
          'text',
          3.5,
          -1,
          2 ** 64,
          null,
          [[1]],
          { id: 'x' },
        ]),
      );
    }
    return this.odd();
  }

  private odd(): string {
    const f = this.faker;
    const pick = f.number.int(9);
    if (pick === 0) return 'x'.repeat(f.number.int({ min: 1_000, max: 70_000 }));
    if (pick === 1) return `${'['.repeat(f.number.int({ min: 100, max: 5_000 }))}${']'.repeat(f.number.int({ min: 0, max: 5_000 }))}`;
    if (pick === 2) return f.string.sample({ min: 1, max: 60 });
    if (pick === 3) return String(f.number.int({ min: -1e15, max: 1e15 })) + '0'.repeat(f.number.int(30));
    return f.helpers.arrayElement(ODD_TEXTS);
  }

  /** A value the schema accepts, or nearly: IDs come from the world so they often name real objects. */
  private valid(schema: Record<string, unknown>, world: FuzzWorld, depth: number): unknown {
    const f = this.faker;
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return f.helpers.arrayElement(schema.enum as unknown[]);
    if ('const' in schema) return schema.const;
    const branches = (schema.oneOf ?? schema.anyOf) as Record<string, unknown>[] | undefined;
    if (Array.isArray(branches) && branches.length > 0) return this.valid(f.helpers.arrayElement(branches), world, depth);
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0)
      return this.valid(Object.assign({}, ...(schema.allOf as object[])) as Record<string, unknown>, world, depth);
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : ['string'];
    const type = f.helpers.arrayElement(types);
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return f.datatype.boolean();
      case 'integer':
        return f.datatype.boolean({ probability: 0.6 })
          ? this.knownId(world)
          : f.number.int({ min: Number(schema.minimum ?? -5), max: Number(schema.maximum ?? 10_000) });
      case 'number':
        return f.number.float({ min: Number(schema.minimum ?? -100), max: Number(schema.maximum ?? 1e10), fractionDigits: 3 });
      case 'array':
        if (depth > 3) return [];
        return Array.from({ length: f.number.int(3) }, () => this.valid((schema.items as Record<string, unknown>) ?? {}, world, depth + 1));
      case 'object': {
        if (depth > 3) return {};
        const props = Object.entries((schema.properties as Record<string, Record<string, unknown>>) ?? {});
        return Object.fromEntries(props.filter(() => f.datatype.boolean()).map(([k, s]) => [k, this.valid(s, world, depth + 1)]));
      }
      default:
        return this.validString(schema, world);
    }
  }

  private validString(schema: Record<string, unknown>, world: FuzzWorld): string {
    const f = this.faker;
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : 200;
    const text = f.helpers.arrayElement([
      () => f.helpers.arrayElement(Object.values(world.channels)).name,
      () => f.helpers.arrayElement(Object.values(world.credentials)).email,
      () => f.lorem.words({ min: 1, max: 4 }),
      () => f.lorem.sentence(),
      () => `**${f.lorem.word()}** #${f.number.int(999)} :smile: @**${f.person.fullName()}**`,
      () => String(this.knownId(world)),
      () => f.date.recent().toISOString(),
    ])();
    return text.slice(0, max);
  }

  private knownId(world: FuzzWorld): number {
    const f = this.faker;
    const ids = [
      ...Object.values(world.channels).map((c) => c.stream_id),
      ...Object.values(world.credentials).map((c) => (c as { user_id?: number }).user_id ?? 1),
      ...Object.values(world.messages ?? {}).map((m) => m.id ?? 1),
      1,
      2,
    ];
    return f.helpers.arrayElement(ids);
  }

  private encodeBody(request: FuzzRequest, fields: [string, string][]): void {
    const f = this.faker;
    const kind = f.number.int(19);
    if (kind < 15) {
      request.headers['content-type'] = 'application/x-www-form-urlencoded';
      request.body = new URLSearchParams(fields).toString();
    } else if (kind < 17) {
      const boundary = `----soak${f.string.alphanumeric(16)}`;
      request.headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      // A truncated multipart body now and then: the parser must answer 400, not hang or crash.
      const parts = fields.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('');
      request.body = f.datatype.boolean({ probability: 0.8 })
        ? `${parts}--${boundary}--\r\n`
        : parts.slice(0, Math.floor(parts.length / 2));
    } else if (kind < 18) {
      request.headers['content-type'] = 'application/json';
      request.body = f.datatype.boolean() ? JSON.stringify(Object.fromEntries(fields)) : '{"broken": ';
    } else {
      request.headers['content-type'] = f.helpers.arrayElement([
        'application/x-www-form-urlencoded',
        'text/plain',
        'application/octet-stream',
        'multipart/form-data',
      ]);
      request.body = f.helpers.arrayElement(['%%%', '=&=&', 'a=%E0%A4%A', '\u0000\u0001\u0002', f.string.sample(200)]);
    }
  }
}

import { isDeepStrictEqual } from 'node:util';
import { fieldProblem, isKind, type FieldKind, type FieldKinds } from './answer.js';
import type { ApiClient, Credentials, FilePart, Params, Reply } from './client.js';
import type { Check } from './model.js';
import { levelOf, type FeatureName } from './openapi.js';
import type { Target } from './target.js';
import type { World, WorldChannel, WorldChannelKind, WorldCredential, WorldRole } from './world.js';

/** A user of the world file making requests (or nobody, for unauthenticated ones). */
export class Actor {
  constructor(
    private readonly client: ApiClient,
    readonly role: string,
    private readonly credentials: Credentials | null,
    readonly user_id: number,
    readonly email: string,
  ) {}

  call(method: string, path: string, params: Params = {}, headers: Record<string, string> = {}): Promise<Reply> {
    return this.client.call(method, path, params, this.credentials, headers);
  }
  get = (path: string, params?: Params) => this.call('GET', path, params);
  post = (path: string, params?: Params) => this.call('POST', path, params);
  patch = (path: string, params?: Params) => this.call('PATCH', path, params);
  delete = (path: string, params?: Params) => this.call('DELETE', path, params);
  /** A multipart POST carrying files (upload-file, companion tier). */
  upload(path: string, files: readonly FilePart[], params: Params = {}): Promise<Reply> {
    return this.client.call('POST', path, params, this.credentials, {}, files);
  }
}

export class SetupError extends Error {}

/**
 * Marks an expectation as the reference server's, not the spec's (a code, text or status the spec leaves
 * open): reports label it "reference <operation>, level N", and a failure is a warning unless the run is
 * `--strict-reference`. `operation` defaults to the operation the checked answer came from.
 */
export interface ReferenceTag {
  operation?: string;
  level?: number;
}
export interface CheckOptions {
  reference?: ReferenceTag;
}
/** The parts of an error answer `expectError` compares. */
export type ErrorPart = 'status' | 'code' | 'msg' | 'extra';

const referenceSource = (tag: ReferenceTag): Check['source'] => ({
  kind: 'reference',
  // Empty: the runner puts in the operation of the checked exchange (provenance.ts resolveSources).
  operation: tag.operation ?? '',
  ...(tag.level === undefined ? {} : { level: tag.level }),
});

/** Numbers names across every scenario of the process: two scenarios using one label must not collide. */
let uniqueSequence = 0;

export interface ContextEnv {
  client: ApiClient;
  world: World;
  featureLevel: number;
  target: Target;
  /** The scenario's own realm on the mock, else null (the world's realm). */
  realmId: string | null;
  runPrefix: string;
  slow: boolean;
  /** "GET /api/v1/users": the request of an exchange of the scenario's record, by its index. */
  requestOf?(index: number): string | undefined;
}

/** Everything a scenario's given / when / then sees. */
export class ScenarioContext {
  readonly checks: Check[] = [];
  #cleanups: (() => Promise<unknown>)[] = [];

  constructor(private readonly env: ContextEnv) {}

  get world(): World {
    return this.env.world;
  }
  /** The target's feature level (service_feature_level, §9). */
  get level(): number {
    return this.env.featureLevel;
  }
  has(feature: FeatureName): boolean {
    return this.env.featureLevel >= levelOf(feature);
  }

  user(role: WorldRole): WorldCredential {
    const c = this.env.world.credentials[role] as WorldCredential | undefined;
    if (!c) throw new SetupError(`the world file has no ${role}`);
    return c;
  }
  as(role: WorldRole): Actor {
    const c = this.user(role);
    return new Actor(this.env.client, role, { role, email: c.email, api_key: c.api_key }, c.user_id, c.email);
  }
  /** Requests with credentials that do not match: a deactivated account, a wrong key. */
  withCredentials(role: string, email: string, apiKey: string): Actor {
    return new Actor(this.env.client, role, { role, email, api_key: apiKey }, 0, email);
  }
  get anonymous(): Actor {
    return new Actor(this.env.client, 'anonymous', null, 0, '');
  }
  channel(kind: WorldChannelKind): WorldChannel {
    const ch = this.env.world.channels[kind];
    if (!ch) throw new SetupError(`the world file has no ${kind} channel`);
    return ch;
  }

  /** A name no other run or scenario uses (real servers keep what scenarios create; the run prefix marks it). */
  unique(label: string): string {
    uniqueSequence += 1;
    return `${this.env.runPrefix} ${label} ${uniqueSequence}`;
  }

  /** Runs after the scenario, pass or fail (cleaning up on real servers). */
  defer(cleanup: () => Promise<unknown>): void {
    this.#cleanups.push(cleanup);
  }
  async cleanup(): Promise<void> {
    for (const fn of this.#cleanups.reverse()) await fn().catch(() => undefined);
  }

  /**
   * The server's time (UNIX seconds): register's server_timestamp (§4.21, presence data), which on the
   * mock is the realm's own clock. Scheduled times must be in the future of this clock, not the suite's.
   */
  async serverTime(): Promise<number> {
    const res = await this.snapshot('member', { event_types: ['presence'], fetch_event_types: ['presence'] });
    return Math.floor(this.need(res, 'server_timestamp', 'number'));
  }

  /** Registers as a role for the initial state (§4.21) and deletes the queue at once: a snapshot, no queue left behind. */
  async snapshot(role: WorldRole, params: Params): Promise<Reply> {
    const actor = this.as(role);
    const res = await actor.post('/api/v1/register', params);
    if (typeof res.body.queue_id === 'string') await actor.delete('/api/v1/events', { queue_id: res.body.queue_id });
    return res;
  }

  /** Moves time forward: the mock's realm clock when available, real waiting under --slow, else a setup error. */
  async advanceClock(seconds: number): Promise<void> {
    if (this.env.realmId !== null && this.env.target.control) return this.env.target.advanceClock(this.env.realmId, seconds);
    if (this.env.slow) return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    throw new SetupError('moving the clock needs the control API or --slow');
  }

  // --- expectations -------------------------------------------------------------------------------

  check(rule: string | null, ok: boolean, message: string, reply?: Reply, opts: CheckOptions = {}): boolean {
    this.checks.push({
      rule,
      ok,
      message,
      ...(reply ? { exchange: reply.index } : {}),
      ...(opts.reference ? { source: referenceSource(opts.reference) } : {}),
    });
    return ok;
  }

  /**
   * An error answer: HTTP status, `code`, and `msg` only where the spec quotes it (fair to other servers).
   * `reference` marks what the reference fixes rather than the spec: the parts named in `for` (default: all)
   * become a check of their own with the reference as its source; the rest stays the spec's and alone makes
   * the result.
   */
  expectError(
    rule: string,
    reply: Reply,
    want: { status: number; code: string; msg?: string; extra?: Record<string, unknown>; reference?: ReferenceTag & { for?: ErrorPart[] } },
  ): boolean {
    const b = reply.body;
    const problems: [ErrorPart | 'result', string][] = [];
    if (reply.status !== want.status) problems.push(['status', `status ${reply.status}, expected ${want.status}`]);
    if (b.result !== 'error') problems.push(['result', `result ${JSON.stringify(b.result)}, expected "error"`]);
    if (b.code !== want.code) problems.push(['code', `code ${JSON.stringify(b.code)}, expected ${want.code}`]);
    if (want.msg !== undefined && b.msg !== want.msg)
      problems.push(['msg', `msg ${JSON.stringify(b.msg)}, expected ${JSON.stringify(want.msg)}`]);
    for (const [k, v] of Object.entries(want.extra ?? {}))
      if (!isDeepStrictEqual(b[k], v)) problems.push(['extra', `${k} ${JSON.stringify(b[k])}, expected ${JSON.stringify(v)}`]);
    const expect = (parts: readonly (ErrorPart | 'result')[], opts: CheckOptions = {}): boolean => {
      const has = (p: ErrorPart | 'result') => parts.includes(p);
      const found = problems.filter(([p]) => has(p)).map(([, text]) => text);
      const label = [
        has('status') ? String(want.status) : has('result') ? 'error' : '',
        has('code') ? want.code : '',
        has('msg') && want.msg !== undefined ? `"${want.msg}"` : '',
        has('extra') && !has('code') && want.extra ? `with ${Object.keys(want.extra).join(', ')}` : '',
      ]
        .filter(Boolean)
        .join(' ');
      const message = found.length === 0 ? `answered ${label}` : `expected ${label}: ${found.join('; ')}`;
      return this.check(rule, found.length === 0, message, reply, opts);
    };
    const all: (ErrorPart | 'result')[] = ['status', 'result', 'code', 'msg', 'extra'];
    const ref = want.reference;
    if (!ref) return expect(all);
    const { for: referenceParts, ...tag } = ref;
    if (!referenceParts) return expect(all, { reference: tag });
    // The spec's parts and the reference's as two checks, so that each failure carries its own source. What
    // follows from the answer (the result returned) rests on the spec's parts alone.
    const spec = expect(all.filter((p) => !(referenceParts as string[]).includes(p)));
    expect(referenceParts, { reference: tag });
    return spec;
  }

  /** A success answer, optionally with fields of given values. */
  expectSuccess(rule: string, reply: Reply, fields: Record<string, unknown> = {}, opts: CheckOptions = {}): boolean {
    const problems: string[] = [];
    if (reply.status !== 200) problems.push(`status ${reply.status}`);
    if (reply.body.result !== 'success') problems.push(`result ${JSON.stringify(reply.body.result)} (${JSON.stringify(reply.body.msg)})`);
    for (const [k, v] of Object.entries(fields))
      if (!isDeepStrictEqual(reply.body[k], v)) problems.push(`${k} ${JSON.stringify(reply.body[k])}, expected ${JSON.stringify(v)}`);
    return this.check(
      rule,
      problems.length === 0,
      problems.length === 0 ? 'answered success' : `expected success: ${problems.join('; ')}`,
      reply,
      opts,
    );
  }

  /** A value equal to the expectation (deep). */
  expectEqual(rule: string, actual: unknown, expected: unknown, what: string, reply?: Reply, opts: CheckOptions = {}): boolean {
    const ok = isDeepStrictEqual(actual, expected);
    return this.check(
      rule,
      ok,
      ok ? `${what} as expected` : `${what}: ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`,
      reply,
      opts,
    );
  }

  /** A setup step that must succeed: otherwise the scenario is an error, not a failure. */
  must(reply: Reply, what: string): Reply {
    if (reply.status !== 200 || reply.body.result !== 'success') {
      const request = this.env.requestOf?.(reply.index);
      throw new SetupError(`${what} failed: ${request ? `${request} answered ` : ''}${reply.status} ${reply.text.slice(0, 200)}`);
    }
    return reply;
  }

  /**
   * A field a step goes on to use, of the kind it reads: otherwise a SetupError that says what the server
   * answered ("GET /api/v1/users answered 200 without `members`"), so the scenario is an `error` naming the
   * answer, never a JavaScript error. The call under test is judged by checks; this is for everything else.
   */
  need<K extends FieldKind>(reply: Reply, key: string, kind: K): FieldKinds[K] {
    const value = reply.body[key];
    if (isKind(value, kind)) return value;
    const request = this.env.requestOf?.(reply.index) ?? 'the request';
    throw new SetupError(`${request} answered ${reply.status} ${fieldProblem(value, key, kind)}`);
  }
}

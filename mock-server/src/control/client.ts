import type { FaultRule, FaultRuleInput } from '../faults/rules.js';
import type { RateLimitSetting } from '../config/config.js';
import type { RateLimitState } from '../faults/rate-limit.js';
import type { Control, Credential, RealmSummary } from './control.js';
import type { QueueSummary } from './queues.js';
import type { RealmActivation, RestartResult, SilenceResult } from './server-events.js';

export type { RealmActivation, RestartResult, SilenceResult };
import type { CreateRealmOptions, RealmExport } from './realms.js';
import { checkExpectation, type ExpectedRequest, type RequestFilter } from './request-match.js';
import type { RequestList } from './requests.js';

/**
 * The HTTP client of the control API (`import { ControlClient } from 'teamchat-kit/control'`): for a test
 * runner that shares a mock it did not start (another CI job's service, `teamchat serve` in a container),
 * where the in-process `mock.control` is out of reach. Its methods have the names and arguments of `Control`,
 * so code moves between the two by changing one line; each answers what the in-process method returns.
 *
 * It imports the server's types only (`import type`), and at run time only the journal's pure matcher
 * (request-match.ts): the compiled entry loads nothing of the mock, no dependency either (Node's global fetch),
 * so a client-only consumer pays for none of it.
 */

export type { FaultEffect, FaultPhase, FaultPreset, FaultRule, FaultRuleInput, NormalEffect, WireFault } from '../faults/rules.js';

/** A realm with its users' credentials and the world file the conformance suite reads. */
export type RealmDetails = ReturnType<Control['describe']>;
export type World = ReturnType<Control['world']>;
/** `GET /__mock/`: realms, the server clock, the number of live event queues, memory. */
export type ServerStatus = ReturnType<Control['status']>;

/** `GET /__mock/clock`: the clock's mode and the server's time (UNIX seconds). */
export type ServerClock = Exclude<ReturnType<Control['clock']>, { realm_id: string }>;
/** A realm's clock: the server's, plus the realm's time (`now`) and its offset from the server's. */
export type RealmClock = Extract<ReturnType<Control['clock']>, { realm_id: string }>;

export type { RateLimitSetting, RateLimitState };

/** What `POST /__mock/realms` reads (`replace` is the in-process API's alone). */
export type CreateRealmParams = Omit<CreateRealmOptions, 'replace'>;

/** An event to deliver as is: any `type`; its `id` is the queue's to give. */
export interface InjectedEvent {
  type: string;
  [field: string]: unknown;
}

export interface ControlClientOptions {
  /** The server's control token (`--control-token`, `TEAMCHAT_CONTROL_TOKEN`), sent as `Authorization: Bearer`. */
  token?: string | undefined;
  /** A fetch to use instead of the global one (a proxy agent, a test double). */
  fetch?: typeof fetch;
}

/**
 * An error answer of the control API, as its JSON envelope gave it: `status` is the HTTP status, `code` and `msg`
 * the envelope's (`UNAUTHORIZED` for a missing or wrong token, `NOT_FOUND` for an unknown realm or snapshot,
 * `BAD_REQUEST` for a bad value). An answer that is not the envelope at all (not the mock, or a proxy's error
 * page) gets the code `UNEXPECTED_ANSWER`. Network failures are fetch's own errors, not this.
 */
export class ControlError extends Error {
  override readonly name = 'ControlError';

  constructor(
    readonly status: number,
    readonly code: string,
    readonly msg: string,
    readonly method: string,
    readonly path: string,
  ) {
    super(`${method} ${path}: ${status} ${code}: ${msg}`);
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export class ControlClient {
  /** The server's base URL, without a trailing slash (`http://127.0.0.1:9991`). */
  readonly url: string;
  readonly #token: string | undefined;
  readonly #fetch: typeof fetch;

  /** `url` is the server's (as `mock.url` or `teamchat serve` prints it); the client adds `/__mock`. */
  constructor(url: string | URL, options: ControlClientOptions = {}) {
    this.url = String(url).replace(/\/+$/, '');
    this.#token = options.token;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  status(): Promise<ServerStatus> {
    return this.#call('GET', '/');
  }

  async listRealms(): Promise<RealmSummary[]> {
    return (await this.#call<{ realms: RealmSummary[] }>('GET', '/realms')).realms;
  }

  /** A fresh, isolated realm from a fixture (default `demo`), with its credentials and world file. */
  createRealm(options: CreateRealmParams = {}): Promise<RealmDetails> {
    return this.#call('POST', '/realms', options);
  }

  describe(realmId: string): Promise<RealmDetails> {
    return this.#call('GET', realm(realmId));
  }

  async deleteRealm(realmId: string): Promise<void> {
    await this.#call('DELETE', realm(realmId));
  }

  /** Back to its fixture (same seed and size); the feature level is kept unless one is given. */
  resetRealm(realmId: string, options: { feature_level?: number } = {}): Promise<RealmDetails> {
    return this.#call('POST', `${realm(realmId)}/reset`, options);
  }

  async credentials(realmId: string): Promise<Credential[]> {
    return (await this.#call<{ credentials: Credential[] }>('GET', `${realm(realmId)}/credentials`)).credentials;
  }

  async world(realmId: string): Promise<World> {
    return (await this.#call<{ world: World }>('GET', `${realm(realmId)}/world`)).world;
  }

  /** The realm as a file that `fixture` (or `teamchat serve --fixture`) accepts. */
  exportRealm(realmId: string): Promise<RealmExport> {
    return this.#call('GET', `${realm(realmId)}/export`);
  }

  setFeatureLevel(realmId: string, level: number): Promise<RealmSummary> {
    return this.#call('PUT', `${realm(realmId)}/feature-level`, { feature_level: level });
  }

  /** The server clock, or with a realm its time too. */
  clock(): Promise<ServerClock>;
  clock(realmId: string): Promise<RealmClock>;
  clock(realmId?: string): Promise<ServerClock | RealmClock> {
    return this.#call('GET', realmId === undefined ? '/clock' : `${realm(realmId)}/clock`);
  }

  /** Sets a realm's time (UNIX seconds; backwards too); answers once what fell due is delivered. */
  setRealmTime(realmId: string, now: number): Promise<RealmClock> {
    return this.#call('PUT', `${realm(realmId)}/clock`, { now });
  }

  /** Moves a realm's time forward; heartbeats, queue expiry and scheduled items that fall due go out first. */
  advanceRealm(realmId: string, seconds: number): Promise<RealmClock> {
    return this.#call('POST', `${realm(realmId)}/clock/advance`, { seconds });
  }

  /** Moves every realm's time forward together. */
  advanceServer(seconds: number): Promise<ServerClock> {
    return this.#call('POST', '/clock/advance', { seconds });
  }

  /** The realm's live event queues with their pending events (the oldest 20 each); what the inspector shows. */
  async queues(realmId: string): Promise<QueueSummary[]> {
    return (await this.#call<{ queues: QueueSummary[] }>('GET', `${realm(realmId)}/queues`)).queues;
  }

  /** The realm's rate limit: its rule (null: none), whether it is the server's or its own, the 429s answered. */
  rateLimit(realmId: string): Promise<RateLimitState> {
    return this.#call('GET', `${realm(realmId)}/rate-limit`);
  }

  /** Gives the realm its own rule (`null`: none) until it is reset; every user's window starts afresh. */
  setRateLimit(realmId: string, setting: RateLimitSetting | null): Promise<RateLimitState> {
    return this.#call('PUT', `${realm(realmId)}/rate-limit`, setting === null ? { off: true } : setting);
  }

  async listSnapshots(realmId: string): Promise<string[]> {
    return (await this.#call<{ snapshots: string[] }>('GET', `${realm(realmId)}/snapshots`)).snapshots;
  }

  /** Saves the realm's state under a name (in the server's memory; a name used before is overwritten). */
  saveSnapshot(realmId: string, name: string): Promise<{ name: string; realm_id: string }> {
    return this.#call('POST', `${realm(realmId)}/snapshots`, { name });
  }

  /** Back to a saved state; the realm's event queues end (clients re-register, as after a restart). */
  restoreSnapshot(realmId: string, name: string): Promise<RealmSummary> {
    return this.#call('POST', `${realm(realmId)}/snapshots/${encodeURIComponent(name)}/restore`);
  }

  async deleteSnapshot(realmId: string, name: string): Promise<void> {
    await this.#call('DELETE', `${realm(realmId)}/snapshots/${encodeURIComponent(name)}`);
  }

  /** Delivers an event to users' queues as a committed change would (default: every active user). */
  injectEvent(realmId: string, event: InjectedEvent, userIds?: number[]): Promise<{ user_ids: number[] }> {
    return this.#call('POST', `${realm(realmId)}/events`, userIds === undefined ? { event } : { event, user_ids: userIds });
  }

  /** Adds a fault rule to the realm (control API "Fault rules"); answers it as stored, with its ID. */
  addFault(realmId: string, rule: FaultRuleInput): Promise<FaultRule> {
    return this.#call('POST', `${realm(realmId)}/faults`, rule);
  }

  /** The realm's fault rules in the order they are tried, with their counters. */
  async faults(realmId: string): Promise<FaultRule[]> {
    return (await this.#call<{ faults: FaultRule[] }>('GET', `${realm(realmId)}/faults`)).faults;
  }

  async removeFault(realmId: string, ruleId: string): Promise<void> {
    await this.#call('DELETE', `${realm(realmId)}/faults/${encodeURIComponent(ruleId)}`);
  }

  clearFaults(realmId: string): Promise<{ removed: number }> {
    return this.#call('DELETE', `${realm(realmId)}/faults`);
  }

  /**
   * Drops the realm's event queues (or one user's) as a restart that loses them: a waiting long-poll is answered
   * with what its queue held, the next poll gets BAD_EVENT_QUEUE_ID.
   */
  restartQueues(realmId: string, options: { user_id?: number } = {}): Promise<RestartResult> {
    return this.#call('POST', `${realm(realmId)}/restart`, options);
  }

  /** As DELETE /users/{id} (its bots too; any account, bots included): its next request answers USER_DEACTIVATED. */
  deactivateUser(realmId: string, userId: number): Promise<Credential> {
    return this.#call('POST', `${realm(realmId)}/users/${encodeURIComponent(userId)}/deactivate`);
  }

  reactivateUser(realmId: string, userId: number): Promise<Credential> {
    return this.#call('POST', `${realm(realmId)}/users/${encodeURIComponent(userId)}/reactivate`);
  }

  /** A new API key for the user (answered); the old one answers INVALID_API_KEY. */
  rotateApiKey(realmId: string, userId: number): Promise<Credential> {
    return this.#call('POST', `${realm(realmId)}/users/${encodeURIComponent(userId)}/api-key`);
  }

  /** Every key of the realm answers REALM_DEACTIVATED until it is reactivated. */
  deactivateRealm(realmId: string): Promise<RealmActivation> {
    return this.#call('POST', `${realm(realmId)}/deactivate`);
  }

  reactivateRealm(realmId: string): Promise<RealmActivation> {
    return this.#call('POST', `${realm(realmId)}/reactivate`);
  }

  /** Long-polls of the realm (or one user) get no answer and no heartbeat for `seconds` of realm time (0 lifts it). */
  silence(realmId: string, options: { seconds: number; user_id?: number }): Promise<SilenceResult> {
    return this.#call('POST', `${realm(realmId)}/silence`, options);
  }

  /** The realm's request journal: `{ requests, count }`, filtered (every field given must match). */
  requests(realmId: string, filter: RequestFilter = {}): Promise<RequestList> {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(filter)) if (value !== undefined) query.set(name, String(value));
    const text = query.toString();
    return this.#call('GET', `${realm(realmId)}/requests${text ? `?${text}` : ''}`);
  }

  async clearRequests(realmId: string): Promise<void> {
    await this.#call('DELETE', `${realm(realmId)}/requests`);
  }

  /**
   * The journaled requests matching `expected` (at least one, or exactly `times`); otherwise throws an Error naming
   * the closest request and how it differs, field by field. Matched here, on the realm's whole journal.
   */
  async expectRequest(realmId: string, expected: ExpectedRequest, options: { times?: number } = {}): Promise<RequestList['requests']> {
    const { requests } = await this.requests(realmId);
    const { matched, failure } = checkExpectation(requests, expected, options.times);
    if (failure !== null) throw new Error(failure);
    return matched;
  }

  async #call<T>(method: Method, path: string, body?: object): Promise<T> {
    // The header lets a bodiless call that changes something through (DELETE, restore): the server takes such
    // calls only with it or a JSON body, which a web page of another site cannot send (http/owner-guard.ts).
    const headers: Record<string, string> = { accept: 'application/json', 'x-teamchat-control': '1' };
    if (this.#token !== undefined) headers.authorization = `Bearer ${this.#token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await this.#fetch(`${this.url}/__mock${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const answer = parseEnvelope(text);
    if (!answer) {
      const excerpt = text.length > 200 ? `${text.slice(0, 200)}…` : text;
      throw new ControlError(res.status, 'UNEXPECTED_ANSWER', `not the control API's JSON envelope: ${excerpt}`, method, path);
    }
    const { result, msg, code, ...data } = answer;
    if (result !== 'success' || !res.ok) {
      // The spec's envelope always has a code on errors; a proxy in between might not keep it.
      throw new ControlError(res.status, typeof code === 'string' ? code : 'BAD_REQUEST', msg, method, path);
    }
    return data as T;
  }
}

const realm = (realmId: string) => `/realms/${encodeURIComponent(realmId)}`;

function parseEnvelope(text: string): { result: string; msg: string; code?: unknown; [field: string]: unknown } | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const { result, msg } = value as { result?: unknown; msg?: unknown };
  return (result === 'success' || result === 'error') && typeof msg === 'string' ? (value as { result: string; msg: string }) : null;
}

import type { AppContext } from '../app-context.js';
import { cacheFor } from '../config/cache.js';
import { fixturesDirOf } from '../config/config.js';
import { SERVICE_VERSION } from '../config/version.js';
import { CURRENT_FEATURE_LEVEL } from '../config/features.js';
import { badRequest, tooManyRealms } from '../domain/errors.js';
import type { FaultRule, FaultRuleInput } from '../faults/rules.js';
import type { RealmSize } from '../fixtures/size.js';
import { worldFromRealm } from '../fixtures/world-from-realm.js';
import type { RealmState } from '../store/state.js';
import type { RateLimitSetting } from '../config/config.js';
import type { RateLimitState } from '../faults/rate-limit.js';
import { injectEvent } from './inject-event.js';
import { listQueues, type QueueSummary } from './queues.js';
import { changeRateLimit, rateLimitOf } from './rate-limit.js';
import { checkEpoch, checkLevel, checkSeconds, MAX_REALM_TIME, realmTables } from './checks.js';
import { Snapshots } from './snapshots.js';
import * as serverEvents from './server-events.js';
import { credentialOf, type Credential } from './server-events.js';
import { clearRequests, listRequests, type RequestList } from './requests.js';
import type { RequestFilter } from './request-match.js';
import { checkSize, instantiateFixture, REALM_ID, type CreateRealmOptions, type RealmExport } from './realms.js';

/**
 * The mock's control operations (never under /api/v1): realms from fixtures, feature levels, the
 * clock, snapshots. The HTTP control API (`/__mock/`) and the programmatic API (`createMockServer`)
 * both call these, so they behave the same.
 *
 * Snapshots live in memory for the life of the process: they are a test-run tool, not realm data.
 */
export interface RealmSummary {
  realm_id: string;
  name: string;
  fixture: string;
  seed: number;
  feature_level: number;
  now: number;
  clock_offset: number;
  users: number;
}

export type { Credential } from './server-events.js';

export class Control {
  #snapshots = new Snapshots();
  /** Realms whose fixture is being generated (asynchronous): taken names, counted against the cap. */
  #creating = new Set<string>();

  constructor(private readonly app: AppContext) {}

  listRealms(): RealmSummary[] {
    return this.app.store.realmIds().map((id) => this.summary(id));
  }

  summary(realmId: string): RealmSummary {
    const tables = this.#tables(realmId);
    const realm = tables.realm.realm;
    return {
      realm_id: realm.id,
      name: realm.name,
      fixture: realm.fixture,
      seed: realm.seed,
      feature_level: realm.feature_level,
      now: this.app.clock.now(realmId),
      clock_offset: realm.clock_offset,
      users: Object.values(tables.users).filter((u) => !u.is_system_bot).length,
    };
  }

  /** Creates an isolated realm from a fixture and returns it with its credentials and world file. */
  async createRealm(options: CreateRealmOptions) {
    const realmId = options.realm_id ?? this.#freshRealmId();
    if (!REALM_ID.test(realmId)) throw badRequest('Invalid realm_id: lower-case letters, digits and dashes, at most 63.');
    const exists = this.app.store.realm(realmId) !== undefined || this.#creating.has(realmId);
    if (exists && !options.replace) throw badRequest(`Realm '${realmId}' already exists.`);
    // Realms being generated count too, so concurrent requests cannot pass the cap together.
    if (!exists && this.app.store.realmIds().length + this.#creating.size >= this.app.config.maxRealms)
      throw tooManyRealms(this.app.config.maxRealms);
    const featureLevel = checkLevel(options.feature_level ?? CURRENT_FEATURE_LEVEL);
    const epoch = checkEpoch(options.epoch ?? this.app.config.epoch);
    const size = checkSize(options);
    if (!exists) this.#creating.add(realmId);
    try {
      await this.#install(realmId, options.fixture ?? 'demo', options.seed ?? this.app.config.seed, featureLevel, epoch, size);
    } finally {
      if (!exists) this.#creating.delete(realmId);
    }
    return this.describe(realmId);
  }

  /**
   * Back to the realm's fixture (same seed, and the same epoch if one was asked for; otherwise it starts
   * at the current time again); the feature level is kept unless a new one is given.
   */
  async resetRealm(realmId: string, options: { feature_level?: number } = {}) {
    const realm = this.#tables(realmId).realm.realm;
    const level = checkLevel(options.feature_level ?? realm.feature_level);
    // A size is the demo generator's; a realm made from an export of a sized realm has its file's size.
    await this.#install(realmId, realm.fixture, realm.seed, level, realm.epoch, realm.fixture === 'demo' ? realm.size : undefined);
    return this.describe(realmId);
  }

  async deleteRealm(realmId: string): Promise<void> {
    this.#tables(realmId);
    if (realmId === this.app.config.defaultRealm) throw badRequest('The default realm cannot be deleted; reset it instead.');
    await this.app.store.replaceRealm(realmId, null);
    this.#endQueues(realmId);
    this.#snapshots.dropRealm(realmId);
  }

  async setFeatureLevel(realmId: string, level: number): Promise<RealmSummary> {
    this.#tables(realmId);
    checkLevel(level);
    await this.app.store.transact(realmId, (tx) => tx.put('realm', 'realm', { ...tx.tables.realm.realm, feature_level: level }));
    return this.summary(realmId);
  }

  describe(realmId: string) {
    return { ...this.summary(realmId), credentials: this.credentials(realmId), world: this.world(realmId) };
  }

  credentials(realmId: string): Credential[] {
    return Object.values(this.#tables(realmId).users)
      .filter((u) => !u.is_system_bot)
      .map(credentialOf);
  }

  world(realmId: string) {
    return worldFromRealm(this.#tables(realmId), { baseUrl: this.app.baseUrl });
  }

  exportRealm(realmId: string): RealmExport {
    return { format: 'teamchat-kit/realm@1', now: this.app.clock.now(realmId), realm: structuredClone(this.#tables(realmId)) };
  }

  clock(realmId?: string) {
    const server = { mode: this.app.clock.mode, server_now: this.app.clock.serverNow() };
    return realmId === undefined
      ? server
      : { ...server, realm_id: realmId, now: this.app.clock.now(realmId), clock_offset: this.#tables(realmId).realm.realm.clock_offset };
  }

  /** Sets a realm's time (moving backwards is allowed: tests may need it; timers only fire forwards). */
  async setRealmTime(realmId: string, now: number) {
    this.#tables(realmId);
    if (!Number.isSafeInteger(now) || now < 0 || now > MAX_REALM_TIME)
      throw badRequest(`now must be a UNIX time in seconds from 0 to ${MAX_REALM_TIME}.`);
    const offset = now - this.app.clock.serverNow();
    await this.app.store.transact(realmId, (tx) => tx.put('realm', 'realm', { ...tx.tables.realm.realm, clock_offset: offset }));
    this.app.clock.fireDue(realmId);
    // Everything that fell due is delivered (durably, events dispatched) before the call answers.
    await this.app.scheduler.settled();
    return this.clock(realmId);
  }

  async advanceRealm(realmId: string, seconds: number) {
    this.#tables(realmId);
    checkSeconds(seconds);
    return this.setRealmTime(realmId, this.app.clock.now(realmId) + Math.floor(seconds));
  }

  /** Moves every realm's time forward together; answers once every item that fell due is delivered. */
  async advanceServer(seconds: number) {
    checkSeconds(seconds);
    if (this.app.clock.serverNow() + seconds > MAX_REALM_TIME) throw badRequest(`The clock cannot pass ${MAX_REALM_TIME}.`);
    this.app.clock.advanceServer(seconds);
    await this.app.scheduler.settled();
    return this.clock();
  }

  saveSnapshot(realmId: string, name: string): { name: string; realm_id: string } {
    this.#snapshots.save(realmId, name, this.#tables(realmId));
    return { name, realm_id: realmId };
  }

  queues(realmId: string): QueueSummary[] {
    return listQueues(this.app, realmId);
  }

  rateLimit(realmId: string): RateLimitState {
    return rateLimitOf(this.app, realmId);
  }

  setRateLimit(realmId: string, setting: RateLimitSetting | null): RateLimitState {
    return changeRateLimit(this.app, realmId, setting);
  }

  listSnapshots(realmId: string): string[] {
    this.#tables(realmId);
    return this.#snapshots.names(realmId);
  }

  async restoreSnapshot(realmId: string, name: string): Promise<RealmSummary> {
    await this.app.store.replaceRealm(realmId, this.#snapshots.copy(realmId, name));
    this.#endQueues(realmId);
    await this.app.scheduler.settled();
    return this.summary(realmId);
  }

  /** Delivers an event to users' queues as a committed change would (control/inject-event.ts). */
  injectEvent = (realmId: string, event: unknown, userIds: unknown) =>
    injectEvent(this.app, this.#tables(realmId), realmId, event, userIds);

  // Server-side events on demand (control/server-events.ts).
  restartQueues = (realmId: string, options?: { user_id?: number }) => serverEvents.restartQueues(this.app, realmId, options);
  deactivateUser = (realmId: string, userId: number) => serverEvents.deactivateUser(this.app, realmId, userId);
  reactivateUser = (realmId: string, userId: number) => serverEvents.reactivateUser(this.app, realmId, userId);
  deactivateRealm = (realmId: string) => serverEvents.deactivateRealm(this.app, realmId);
  reactivateRealm = (realmId: string) => serverEvents.reactivateRealm(this.app, realmId);
  rotateApiKey = (realmId: string, userId: number) => serverEvents.rotateApiKey(this.app, realmId, userId);
  silence = (realmId: string, options: { seconds: number; user_id?: number }) => serverEvents.silence(this.app, realmId, options);

  status() {
    // With --expose-gc (the benchmark) measure live memory, not garbage awaiting collection.
    (globalThis as { gc?: () => void }).gc?.();
    const memory = process.memoryUsage();
    return {
      // Names the mock, so a client tells its control API from a server that answers anything under /__mock/.
      service: SERVICE_VERSION,
      realms: this.listRealms(),
      clock: this.clock(),
      queues: this.app.queues.size,
      memory: { rss: memory.rss, heap_used: memory.heapUsed },
    };
  }

  /** Fault rules (faults/rules.ts): what the realm's requests meet until the rules expire or are removed. */
  addFault = (realmId: string, rule: FaultRuleInput): Promise<FaultRule> => this.app.faults.add(realmId, rule, this.app.operations);
  faults = (realmId: string): FaultRule[] => this.app.faults.list(realmId);
  removeFault = (realmId: string, ruleId: string): void => this.app.faults.remove(realmId, ruleId);
  clearFaults = (realmId: string): { removed: number } => this.app.faults.clear(realmId);

  deleteSnapshot(realmId: string, name: string): void {
    this.#snapshots.delete(realmId, name);
  }

  /** The realm's request journal, filtered (control/requests.ts). */
  requests(realmId: string, filter: RequestFilter = {}): RequestList {
    return listRequests(this.app, realmId, filter);
  }

  clearRequests(realmId: string): void {
    clearRequests(this.app, realmId);
  }

  async #install(
    realmId: string,
    fixture: string,
    seed: number,
    featureLevel: number,
    epoch: number | undefined,
    size: RealmSize | undefined,
  ): Promise<void> {
    const now = this.app.clock.serverNow();
    let instance;
    try {
      const files = { dir: fixturesDirOf(this.app.config), trusted: this.app.config.fixture };
      const cache = cacheFor(this.app.config);
      instance = await instantiateFixture(fixture, { realmId, seed, featureLevel, epoch, now, size, files, cache });
    } catch (error) {
      throw badRequest((error as Error).message);
    }
    // The realm starts at its start time and moves on from there with the server clock (its own
    // offset, 0 when it starts now): a realm reloaded from the state file goes on from where it was.
    const realm = instance.tables.realm.realm;
    realm.clock_offset = instance.start - now;
    if (epoch === undefined) delete realm.epoch;
    else realm.epoch = epoch;
    await this.app.store.replaceRealm(realmId, instance.tables);
    this.#endQueues(realmId);
    // A realm made from an export may hold items already due: they go out before the realm is handed over.
    await this.app.scheduler.settled();
  }

  /** A realm replaced or removed is a new server to its clients: they get BAD_EVENT_QUEUE_ID and re-register. */
  #endQueues(realmId: string): void {
    this.app.queues.dropRealm(realmId);
    this.app.queues.silences.clear(realmId);
  }

  #tables(realmId: string): RealmState {
    return realmTables(this.app.store, realmId);
  }

  #freshRealmId(): string {
    let n = this.app.store.realmIds().length + 1;
    while (this.app.store.realm(`realm-${n}`) || this.#creating.has(`realm-${n}`)) n++;
    return `realm-${n}`;
  }
}

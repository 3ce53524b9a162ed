import { ROLE } from '../contract/roles.js';
import { faultRuleNotFound, realmNotFound, tooManyFaultRules } from '../domain/errors.js';
import type { Store } from '../store/store.js';
import type { UserRow } from '../store/state.js';
import type { seeded as Seeded } from './random.js';
import { checkRule, MAX_FAULT_MS, type FaultRule, type FaultRuleInput, type NormalEffect } from './rule-input.js';

export type { FaultEffect, FaultPhase, FaultPreset, FaultRule, FaultRuleInput, NormalEffect, WireFault } from './rule-input.js';

/** Rules of one realm at once (design: every one is tried on each request of the realm). */
export const MAX_FAULT_RULES = 100;

/** A seeded generator of numbers in [0, 1) (random.ts). */
export interface Random {
  next(): number;
}

/** The generators' module, imported once the first rule is added (random.ts says why). */
let generators: Promise<{ seeded: typeof Seeded }> | null = null;

/** A rule with what it needs at run time: its own generator, so each rule's draws repeat from its seed. */
interface Held {
  rule: FaultRule;
  /** The rule's path without its trailing `*`, and whether it is a prefix. */
  pathPrefix: string | null;
  random: Random;
}

/** What a rule did to one request: its effect, the latency drawn for it, and the label the logs show. */
export interface Decision {
  /** The rule as held (its counters move on): read, never changed. */
  rule: FaultRule;
  effect: NormalEffect;
  /** The wait of a latency or trickle effect, drawn now. */
  ms: number;
  label: string;
  random: Random;
}

/** What a request offers for matching (an express request fits); `path` is read only when a rule has one. */
export interface Matchable {
  method: string;
  path: string;
}

/**
 * Fault rules of every realm (control API "Fault rules"), in memory: a test tool, not realm data. They go with
 * their realm when it is deleted, reset, replaced or restored (the store's whole-realm changes), so a test's
 * faults never outlive the realm state they were made for.
 *
 * `active` is true exactly when some realm has a rule: the request pipeline checks it and nothing else, so a
 * server without rules pays one property read per request.
 */
export class FaultRules {
  active = false;
  #realms = new Map<string, { rules: Held[]; nextId: number }>();
  #count = 0;
  /** Latency and trickle timers in flight; the server's close clears them (each also ends with its client). */
  readonly #timers = new Set<NodeJS.Timeout>();
  #closed = false;

  constructor(private readonly store: Store) {
    // A realm replaced as a whole (reset, restore, create with replace) or removed: its rules go.
    store.watch((change) => {
      if (change.table === null && this.#realms.has(change.realm)) this.#drop(change.realm);
    });
  }

  /** Checks, normalises and stores a rule; answers it as stored. Bad input stores nothing. */
  async add(realmId: string, input: FaultRuleInput | unknown, operations: readonly { operationId: string }[]): Promise<FaultRule> {
    const { seeded } = await (generators ??= import('./random.js'));
    // Looked up after the wait: the realm may have gone meanwhile, and the checks and the cap then run in one go.
    const tables = this.store.realm(realmId);
    if (!tables) throw realmNotFound(realmId);
    const spec = checkRule(input, {
      operationIds: new Set(operations.map((op) => op.operationId)),
      userExists: (user) =>
        typeof user === 'number'
          ? tables.users[String(user)] !== undefined
          : Object.values(tables.users).some((row) => row.email.toLowerCase() === user.toLowerCase()),
    });
    const realm = this.#realms.get(realmId) ?? { rules: [], nextId: 1 };
    if (realm.rules.length >= MAX_FAULT_RULES) throw tooManyFaultRules(MAX_FAULT_RULES);
    const rule: FaultRule = { id: `f${realm.nextId++}`, ...spec, matched: 0, applied: 0, remaining: spec.times };
    const prefix = rule.path?.endsWith('*') ? rule.path.slice(0, -1) : null;
    realm.rules.push({ rule, pathPrefix: prefix, random: seeded(rule.seed) });
    this.#realms.set(realmId, realm);
    this.#count++;
    this.active = true;
    return copy(rule);
  }

  list(realmId: string): FaultRule[] {
    this.#realm(realmId);
    return (this.#realms.get(realmId)?.rules ?? []).map((held) => copy(held.rule));
  }

  remove(realmId: string, ruleId: string): void {
    this.#realm(realmId);
    const rules = this.#realms.get(realmId)?.rules ?? [];
    const at = rules.findIndex((held) => held.rule.id === ruleId);
    if (at < 0) throw faultRuleNotFound(realmId, ruleId);
    this.#removeAt(realmId, at);
  }

  /** Removes every rule of the realm; answers how many there were. */
  clear(realmId: string): { removed: number } {
    this.#realm(realmId);
    const removed = this.#realms.get(realmId)?.rules.length ?? 0;
    this.#drop(realmId);
    return { removed };
  }

  /**
   * The rule that applies to this request, if any. Rules are tried in the order they were added; each that
   * matches counts the request (its `every` and probability decide on that count), and the first that applies
   * decides: the rules after it do not see the request.
   */
  decide(realmId: string, operationId: string, req: Matchable, user: UserRow | null): Decision | null {
    const realm = this.#realms.get(realmId);
    if (!realm) return null;
    for (let at = 0; at < realm.rules.length; at++) {
      const held = realm.rules[at]!;
      const rule = held.rule;
      if (!matches(held, operationId, req, user)) continue;
      rule.matched++;
      if (rule.matched % rule.every !== 0) continue;
      if (rule.probability !== null && held.random.next() >= rule.probability) continue;
      rule.applied++;
      if (rule.remaining !== null && --rule.remaining === 0) this.#removeAt(realmId, at);
      const ms = waitOf(rule.effect, held.random);
      return { rule, effect: rule.effect, ms, label: labelOf(rule.effect, ms), random: held.random };
    }
    return null;
  }

  /**
   * Runs `fn` after `ms` of wall time: injected latency models the network, which a realm's manual clock
   * must not freeze (design "Realm time"), so this is the one place of the mock that waits on a real timer.
   * `cancel` (the client went away) clears it; so does the server's close.
   */
  later(ms: number, fn: () => void): { cancel(): void } {
    // An answer that comes once the server is closing (a long-poll its close woke): its socket is going away.
    if (this.#closed) return { cancel: () => undefined };
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      fn();
    }, ms);
    this.#timers.add(timer);
    return {
      cancel: () => {
        clearTimeout(timer);
        this.#timers.delete(timer);
      },
    };
  }

  /** Latency and trickle timers in flight (each owned by an answer still on its way). */
  get waiting(): number {
    return this.#timers.size;
  }

  /** The server closes: pending timers and every rule go. */
  close(): void {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const realmId of [...this.#realms.keys()]) this.#drop(realmId);
  }

  #removeAt(realmId: string, at: number): void {
    const realm = this.#realms.get(realmId)!;
    realm.rules.splice(at, 1);
    this.#count--;
    this.active = this.#count > 0;
  }

  #drop(realmId: string): void {
    this.#count -= this.#realms.get(realmId)?.rules.length ?? 0;
    this.#realms.delete(realmId);
    this.active = this.#count > 0;
  }

  #realm(realmId: string): void {
    if (!this.store.realm(realmId)) throw realmNotFound(realmId);
  }
}

function matches(held: Held, operationId: string, req: Matchable, user: UserRow | null): boolean {
  const rule = held.rule;
  if (rule.operation !== null && rule.operation !== operationId) return false;
  if (rule.method !== null && rule.method !== req.method) return false;
  if (rule.path !== null) {
    const path = req.path;
    if (held.pathPrefix !== null ? !path.startsWith(held.pathPrefix) : path !== rule.path) return false;
  }
  if (rule.user !== null) {
    if (!user) return false;
    if (typeof rule.user === 'number' ? user.user_id !== rule.user : user.email.toLowerCase() !== rule.user.toLowerCase()) return false;
  }
  if (rule.role !== null && (!user || user.role !== ROLE[rule.role])) return false;
  return true;
}

/** The wait of a latency or trickle effect, from the rule's generator (so a seed repeats the sequence). */
function waitOf(effect: NormalEffect, random: Random): number {
  if (effect.type === 'trickle') return effect.ms;
  if (effect.type !== 'latency') return 0;
  switch (effect.distribution) {
    case 'fixed':
      return effect.ms;
    case 'uniform':
      return Math.round(effect.min_ms + random.next() * (effect.max_ms - effect.min_ms));
    case 'lognormal': {
      // Box–Muller: a standard normal draw from two uniform ones (1 - u keeps the logarithm finite).
      const z = Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
      return Math.min(Math.round(effect.median_ms * Math.exp(effect.sigma * z)), MAX_FAULT_MS);
    }
  }
}

/** The label of the request log, the inspector and the journal (`res.locals.injected`). */
function labelOf(effect: NormalEffect, ms: number): string {
  switch (effect.type) {
    case 'latency':
      return `latency ${ms}ms`;
    case 'trickle':
      return `trickle ${ms}ms`;
    case 'preset':
      return effect.preset;
    case 'error':
      return `error ${effect.code}`;
    default:
      return effect.type;
  }
}

function copy(rule: FaultRule): FaultRule {
  return structuredClone(rule);
}

import { ROLE, type RoleName } from '../contract/roles.js';
import { nestedDeeperThan } from '../contract/json-depth.js';
import { badRequest, clipped } from '../domain/errors.js';

/**
 * The wire form of a fault rule (control API "Fault rules"): what a test sends, and what the server answers once
 * checked and normalised (defaults filled in, one shape per effect). Every bad field is refused with a text that
 * names it, before anything is stored: a rule that silently matched everything because of a typo would be worse.
 */
export type FaultPreset = 'rate_limit' | 'server_error' | 'bad_gateway' | 'service_unavailable';
export type WireFault = 'reset' | 'close' | 'truncate' | 'garbage';
export type FaultPhase = 'before' | 'after';

export type FaultEffect =
  | { type: 'latency'; ms: number; distribution?: 'fixed' }
  | { type: 'latency'; distribution: 'uniform'; min_ms: number; max_ms: number }
  | { type: 'latency'; distribution: 'lognormal'; median_ms: number; sigma: number }
  | { type: 'trickle'; ms: number }
  | { type: 'preset'; preset: FaultPreset; retry_after?: number }
  | { type: 'error'; status?: number; code?: string; msg: string; fields?: Record<string, unknown> }
  | { type: WireFault };

/** A rule as a test writes it. Match by `operation` or by `method` + `path`; by `user` or `role`. */
export interface FaultRuleInput {
  /** An operation ID of the API document (`send-message`). */
  operation?: string;
  method?: string;
  /** Under /api/v1 (`/messages`) or full (`/api/v1/messages`); a trailing `*` matches every path it begins. */
  path?: string;
  /** A user ID or email of the realm. */
  user?: number | string;
  role?: RoleName;
  /** Applies to the every-th matching request (3: the 3rd, 6th, …); default 1. */
  every?: number;
  /** Removed once it applied this many times ("the next N"); default: until removed. */
  times?: number;
  /** Applies with this probability, drawn from a generator of the rule's own seeded with `seed`. */
  probability?: number;
  seed?: number;
  effect: FaultEffect;
  /** Answers and wire faults: `before` (default) does not run the request; `after` runs it, then replaces its answer. */
  phase?: FaultPhase;
}

export type NormalEffect =
  | { type: 'latency'; distribution: 'fixed'; ms: number }
  | { type: 'latency'; distribution: 'uniform'; min_ms: number; max_ms: number }
  | { type: 'latency'; distribution: 'lognormal'; median_ms: number; sigma: number }
  | { type: 'trickle'; ms: number }
  | { type: 'preset'; preset: 'rate_limit'; retry_after: number }
  | { type: 'preset'; preset: Exclude<FaultPreset, 'rate_limit'> }
  | { type: 'error'; status: number; code: string; msg: string; fields: Record<string, unknown> }
  | { type: WireFault };

/** A stored rule as listed: the input normalised, with its ID and counters. */
export interface FaultRule {
  id: string;
  operation: string | null;
  method: string | null;
  path: string | null;
  user: number | string | null;
  role: RoleName | null;
  every: number;
  times: number | null;
  probability: number | null;
  seed: number;
  effect: NormalEffect;
  phase: FaultPhase;
  /** Requests that matched the rule's operation/path and user/role. */
  matched: number;
  /** Requests it changed. */
  applied: number;
  /** How many more times it applies (null: until removed). */
  remaining: number | null;
}

/** Injected latency and trickle at most (design: a longer wait models nothing a client can handle). */
export const MAX_FAULT_MS = 600_000;
const MAX_COUNT = 1_000_000;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const ROLES = Object.keys(ROLE) as RoleName[];
const TOP_FIELDS = ['operation', 'method', 'path', 'user', 'role', 'every', 'times', 'probability', 'seed', 'effect', 'phase'];
const EFFECT_FIELDS: Record<string, string[]> = {
  latency: ['distribution', 'ms', 'min_ms', 'max_ms', 'median_ms', 'sigma'],
  trickle: ['ms'],
  preset: ['preset', 'retry_after'],
  error: ['status', 'code', 'msg', 'fields'],
  reset: [],
  close: [],
  truncate: [],
  garbage: [],
};
const PRESETS: FaultPreset[] = ['rate_limit', 'server_error', 'bad_gateway', 'service_unavailable'];
/** An injected error's extra fields: bounded like any stored value (every matching request carries them). */
const MAX_FIELDS_CHARS = 16 * 1024;
const MAX_FIELDS_DEPTH = 16;

/** Where the rule's user is looked up: the realm's users (by ID and by email). */
export interface RuleLookups {
  operationIds: ReadonlySet<string>;
  userExists(user: number | string): boolean;
}

/** The checked, normalised rule without its ID and counters. */
export type RuleSpec = Omit<FaultRule, 'id' | 'matched' | 'applied' | 'remaining'>;

export function checkRule(input: unknown, lookups: RuleLookups): RuleSpec {
  const rule = record(input, 'A fault rule');
  for (const key of Object.keys(rule)) if (!TOP_FIELDS.includes(key)) throw unknownField(key, '', TOP_FIELDS);
  const operation = optional(rule.operation, (v) => {
    if (typeof v !== 'string' || !lookups.operationIds.has(v))
      throw badRequest(`operation: no operation '${clipped(String(v))}' in the API document (an operationId such as 'send-message').`);
    return v;
  });
  if (operation !== null && (rule.method !== undefined || rule.path !== undefined))
    throw badRequest('operation cannot be combined with method or path: match by one or the other.');
  const method = optional(rule.method, (v) => {
    const upper = typeof v === 'string' ? v.toUpperCase() : '';
    if (!METHODS.includes(upper)) throw badRequest(`method must be one of ${METHODS.join(', ')}.`);
    return upper;
  });
  const path = optional(rule.path, checkPath);
  if (rule.user !== undefined && rule.role !== undefined) throw badRequest('user and role cannot be combined: match by one or the other.');
  const user = optional(rule.user, (v) => {
    const given = typeof v === 'string' ? v.trim() : v;
    if (
      !((typeof given === 'number' && Number.isSafeInteger(given)) || (typeof given === 'string' && given !== '')) ||
      !lookups.userExists(given)
    )
      throw badRequest(`user: no user ${clipped(JSON.stringify(v) ?? String(v))} in this realm (give a user ID or an email).`);
    return given;
  });
  const role = optional(rule.role, (v) => {
    if (typeof v !== 'string' || !ROLES.includes(v as RoleName)) throw badRequest(`role must be one of ${ROLES.join(', ')}.`);
    return v as RoleName;
  });
  const every = optional(rule.every, (v) => count(v, 'every')) ?? 1;
  const times = optional(rule.times, (v) => count(v, 'times'));
  const probability = optional(rule.probability, (v) => {
    if (typeof v !== 'number' || !(v > 0 && v <= 1)) throw badRequest('probability must be a number greater than 0 and at most 1.');
    return v;
  });
  const seed =
    optional(rule.seed, (v) => {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff)
        throw badRequest('seed must be an integer from 0 to 4294967295.');
      return v;
    }) ?? 1;
  if (rule.effect === undefined) throw badRequest(`effect is required: an object with a type (${Object.keys(EFFECT_FIELDS).join(', ')}).`);
  const effect = checkEffect(rule.effect);
  const phase = checkPhase(rule.phase, effect);
  return { operation, method, path, user, role, every, times, probability, seed, effect, phase };
}

function checkEffect(input: unknown): NormalEffect {
  const effect = record(input, 'effect');
  const type = effect.type;
  if (typeof type !== 'string' || !(type in EFFECT_FIELDS))
    throw badRequest(`effect.type must be one of ${Object.keys(EFFECT_FIELDS).join(', ')}.`);
  const known = ['type', ...EFFECT_FIELDS[type]!];
  for (const key of Object.keys(effect)) if (!known.includes(key)) throw unknownField(key, 'effect.', known);
  switch (type) {
    case 'latency':
      return checkLatency(effect);
    case 'trickle':
      return { type, ms: millis(effect.ms, 'effect.ms') };
    case 'preset':
      return checkPreset(effect);
    case 'error':
      return checkError(effect);
    default:
      return { type: type as WireFault };
  }
}

function checkLatency(effect: Record<string, unknown>): NormalEffect {
  const distribution = effect.distribution ?? 'fixed';
  const stray = (fields: string[]) => fields.find((name) => effect[name] !== undefined);
  const refuse = (fields: string[]) => {
    const field = stray(fields);
    if (field) throw badRequest(`effect.${field} does not apply to the ${String(distribution)} distribution.`);
  };
  switch (distribution) {
    case 'fixed':
      refuse(['min_ms', 'max_ms', 'median_ms', 'sigma']);
      return { type: 'latency', distribution: 'fixed', ms: millis(effect.ms, 'effect.ms') };
    case 'uniform': {
      refuse(['ms', 'median_ms', 'sigma']);
      const min = millis(effect.min_ms, 'effect.min_ms');
      const max = millis(effect.max_ms, 'effect.max_ms');
      if (max < min) throw badRequest('effect.max_ms must not be less than effect.min_ms.');
      return { type: 'latency', distribution: 'uniform', min_ms: min, max_ms: max };
    }
    case 'lognormal': {
      refuse(['ms', 'min_ms', 'max_ms']);
      const median = millis(effect.median_ms, 'effect.median_ms');
      const sigma = effect.sigma;
      if (typeof sigma !== 'number' || !(sigma >= 0 && sigma <= 10)) throw badRequest('effect.sigma must be a number from 0 to 10.');
      return { type: 'latency', distribution: 'lognormal', median_ms: median, sigma };
    }
    default:
      throw badRequest("effect.distribution must be one of fixed, uniform, lognormal (default fixed, with 'ms').");
  }
}

function checkPreset(effect: Record<string, unknown>): NormalEffect {
  const preset = effect.preset;
  if (typeof preset !== 'string' || !PRESETS.includes(preset as FaultPreset))
    throw badRequest(`effect.preset must be one of ${PRESETS.join(', ')}.`);
  if (preset !== 'rate_limit') {
    if (effect.retry_after !== undefined) throw badRequest('effect.retry_after applies to the rate_limit preset only.');
    return { type: 'preset', preset: preset as Exclude<FaultPreset, 'rate_limit'> };
  }
  const retryAfter = effect.retry_after ?? 1;
  if (typeof retryAfter !== 'number' || !(retryAfter > 0 && retryAfter <= MAX_FAULT_MS / 1000))
    throw badRequest(`effect.retry_after must be a number of seconds greater than 0 and at most ${MAX_FAULT_MS / 1000}.`);
  return { type: 'preset', preset: 'rate_limit', retry_after: retryAfter };
}

function checkError(effect: Record<string, unknown>): NormalEffect {
  const status = effect.status ?? 400;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599)
    throw badRequest('effect.status must be an HTTP error status, an integer from 400 to 599.');
  const code = effect.code ?? 'BAD_REQUEST';
  if (typeof code !== 'string' || !/^[A-Z][A-Z0-9_]{0,63}$/.test(code))
    throw badRequest('effect.code must be an upper-case identifier (letters, digits, _; at most 64), such as BAD_REQUEST.');
  const msg = effect.msg;
  if (typeof msg !== 'string' || msg.length > 1000) throw badRequest('effect.msg must be a string of at most 1000 characters.');
  const fields = effect.fields === undefined ? {} : record(effect.fields, 'effect.fields');
  for (const name of ['result', 'msg', 'code']) {
    if (name in fields) throw badRequest(`effect.fields cannot set '${name}': the envelope's own fields come from status, code and msg.`);
  }
  if (nestedDeeperThan(fields, MAX_FIELDS_DEPTH))
    throw badRequest(`effect.fields is nested too deeply (limit: ${MAX_FIELDS_DEPTH} levels).`);
  const text = JSON.stringify(fields);
  if (text.length > MAX_FIELDS_CHARS) throw badRequest(`effect.fields is too large (limit: ${MAX_FIELDS_CHARS} characters of JSON).`);
  // A copy of its own: the caller's object (in-process API) may change after the rule is stored.
  return { type: 'error', status, code, msg, fields: JSON.parse(text) as Record<string, unknown> };
}

function checkPhase(input: unknown, effect: NormalEffect): FaultPhase {
  if (input !== undefined && input !== 'before' && input !== 'after') throw badRequest("phase must be 'before' or 'after'.");
  // Latency and trickle always run the request and hold its own answer back: they have no "before".
  if (effect.type === 'latency' || effect.type === 'trickle') {
    if (input === 'before') throw badRequest(`phase 'before' does not apply to ${effect.type}: it always delays the request's own answer.`);
    return 'after';
  }
  return input ?? 'before';
}

function checkPath(value: unknown): string {
  if (
    typeof value !== 'string' ||
    !value.startsWith('/') ||
    value.length > 1000 ||
    /[?#\s]/.test(value) ||
    value.slice(0, -1).includes('*')
  )
    throw badRequest("path must start with '/' (a path under /api/v1, or the full path), without a query; only a trailing '*' (a prefix).");
  return /^\/api\/v1(\/|\*?$)/.test(value) ? value : `/api/v1${value}`;
}

function millis(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_FAULT_MS)
    throw badRequest(`${name} must be an integer number of milliseconds from 0 to ${MAX_FAULT_MS} (600 s).`);
  return value;
}

function count(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_COUNT)
    throw badRequest(`${name} must be an integer from 1 to ${MAX_COUNT}.`);
  return value;
}

function record(value: unknown, name: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest(`${name} must be a JSON object.`);
  return value as Record<string, unknown>;
}

function optional<T>(value: unknown, check: (value: unknown) => T): T | null {
  return value === undefined || value === null ? null : check(value);
}

const unknownField = (key: string, prefix: string, known: string[]) =>
  badRequest(`Unknown field '${clipped(prefix + key)}' (known: ${known.map((k) => prefix + k).join(', ')}).`);

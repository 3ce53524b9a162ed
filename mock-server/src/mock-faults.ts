import type { Control } from './control/control.js';
import type { FaultPhase, FaultRule, FaultRuleInput } from './faults/rules.js';

/**
 * `mock.faults` (README "Testing your client's failure handling"): the control API's fault rules for a test
 * that runs the mock in-process, on the server's default realm unless a realm is named. The shortcuts build the
 * wire form (docs/control-api.md "Fault rules") from camelCase options; `add` takes the wire form itself.
 */
/** What a rule matches and when it applies: the wire form's fields (FaultRuleInput), and the realm it is for. */
export interface FaultMatch extends Omit<FaultRuleInput, 'effect' | 'phase'> {
  /** Default: the server's default realm. */
  realmId?: string;
}

/** Answers and wire faults: `before` (default) does not run the request; `after` runs it, then replaces its answer. */
export interface PhasedMatch extends FaultMatch {
  phase?: FaultPhase;
}

export type LatencyOptions = FaultMatch & ({ ms: number } | { minMs: number; maxMs: number } | { medianMs: number; sigma: number });

export interface ErrorOptions extends PhasedMatch {
  /** 400–599 (default 400). */
  status?: number;
  /** An upper-case identifier (default BAD_REQUEST). */
  code?: string;
  msg: string;
  /** Extra fields of the error body (not result, msg or code). */
  fields?: Record<string, unknown>;
}

export class MockFaults {
  constructor(
    private readonly control: Control,
    private readonly defaultRealm: string,
  ) {}

  /** A rule in the wire form; answers it as stored (its `id` removes it). */
  add(rule: FaultRuleInput, realmId = this.defaultRealm): Promise<FaultRule> {
    return this.control.addFault(realmId, rule);
  }

  list(realmId = this.defaultRealm): FaultRule[] {
    return this.control.faults(realmId);
  }

  remove(ruleId: string, realmId = this.defaultRealm): void {
    this.control.removeFault(realmId, ruleId);
  }

  clear(realmId = this.defaultRealm): { removed: number } {
    return this.control.clearFaults(realmId);
  }

  /** 429 RATE_LIMIT_HIT as the reference answers it, `retry-after` in the body and the header (default 1 s). */
  rateLimit(options: PhasedMatch & { retryAfter?: number } = {}): Promise<FaultRule> {
    const { retryAfter, ...match } = options;
    return this.#add(match, { type: 'preset', preset: 'rate_limit', ...(retryAfter === undefined ? {} : { retry_after: retryAfter }) });
  }

  /** 500 with the reference's body for a request that raised (`{"result":"error","msg":"Internal server error"}`). */
  serverError(options: PhasedMatch = {}): Promise<FaultRule> {
    return this.#add(options, { type: 'preset', preset: 'server_error' });
  }

  /** 502 as nginx answers it when the application server is down: an HTML page. */
  badGateway(options: PhasedMatch = {}): Promise<FaultRule> {
    return this.#add(options, { type: 'preset', preset: 'bad_gateway' });
  }

  /** 503 as nginx answers it: an HTML page. */
  serviceUnavailable(options: PhasedMatch = {}): Promise<FaultRule> {
    return this.#add(options, { type: 'preset', preset: 'service_unavailable' });
  }

  /** Any error in the API's envelope. */
  error(options: ErrorOptions): Promise<FaultRule> {
    const { status, code, msg, fields, ...match } = options;
    return this.#add(match, { type: 'error', msg, ...defined({ status, code, fields }) });
  }

  /** The answer waits (wall time): `ms`, uniform `minMs`–`maxMs`, or log-normal `medianMs` and `sigma`. */
  latency(options: LatencyOptions): Promise<FaultRule> {
    if ('ms' in options) {
      const { ms, ...match } = options;
      return this.#add(match, { type: 'latency', ms });
    }
    if ('minMs' in options) {
      const { minMs, maxMs, ...match } = options;
      return this.#add(match, { type: 'latency', distribution: 'uniform', min_ms: minMs, max_ms: maxMs });
    }
    const { medianMs, sigma, ...match } = options;
    return this.#add(match, { type: 'latency', distribution: 'lognormal', median_ms: medianMs, sigma });
  }

  /** The headers at once, the body spread over `ms`. */
  trickle(options: FaultMatch & { ms: number }): Promise<FaultRule> {
    const { ms, ...match } = options;
    return this.#add(match, { type: 'trickle', ms });
  }

  /** The connection is reset (TCP RST): the client's read fails with ECONNRESET. */
  reset(options: PhasedMatch = {}): Promise<FaultRule> {
    return this.#add(options, { type: 'reset' });
  }

  /** The connection is closed without an answer. */
  close(options: PhasedMatch = {}): Promise<FaultRule> {
    return this.#add(options, { type: 'close' });
  }

  /** The headers and half of the body, then the connection closes. */
  truncate(options: PhasedMatch = {}): Promise<FaultRule> {
    return this.#add(options, { type: 'truncate' });
  }

  /** Bytes that are not HTTP, then the connection closes. */
  garbage(options: PhasedMatch = {}): Promise<FaultRule> {
    return this.#add(options, { type: 'garbage' });
  }

  #add(options: PhasedMatch, effect: FaultRuleInput['effect']): Promise<FaultRule> {
    const { realmId, ...match } = options;
    return this.add({ ...defined(match), effect }, realmId);
  }
}

/** The options given, without those left undefined (the wire form refuses nothing for them, but lists stay tidy). */
function defined<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}

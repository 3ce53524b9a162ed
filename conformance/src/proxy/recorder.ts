import type { Check, Exchange, RuleDef, RunResult, ScenarioResult } from '../model.js';
import type { Captured } from './forward.js';
import type { Finding, Judge } from './judge.js';
import { requestParams, responseBody } from './params.js';
import { basicUser, curlLine, redactBody, redactHeaders, redactParams, redactPath, SECRET_HEADERS } from '../redact.js';

/**
 * Turns the exchanges the proxy forwarded into verdicts: judges each one, tells the live printer about
 * every violation, and keeps the run as the reports' RunResult, where each operation seen is one case
 * ("scenario") whose checks are the rules judged on its exchanges. The record is bounded: per case the
 * first MAX_KEPT exchanges and every failing one up to MAX_FAILING are kept (what the HTML report shows),
 * one passing check per rule (coverage), and counts for the rest; a kept answer over 256 KiB of JSON is kept as its
 * text's start, and once 64 MiB of answers are kept, later ones are kept without their body.
 */
/**
 * Answer headers the proxy's reports leave out: the suite's secret ones, a cookie, and the Basic challenge (a
 * real server's realm name, of no use to judge a run).
 */
const PROXY_DROPPED_HEADERS: ReadonlySet<string> = new Set([...SECRET_HEADERS, 'cookie', 'www-authenticate']);
const MAX_KEPT = 20;
const MAX_FAILING = 200;
/** A kept answer bigger than this (a register snapshot) is kept as its start; all kept answers share a budget. */
const MAX_BODY_CHARS = 256 * 1024;
const BODY_BUDGET_CHARS = 64 * 1024 * 1024;

export interface Violation {
  finding: Finding;
  exchange: Exchange;
  operationId: string | null;
}

interface Case {
  result: ScenarioResult;
  passingRules: Set<string>;
  seen: number;
  failing: number;
}

export const UNREACHABLE_CASE = 'proxy.target-unreachable';
const UNKNOWN_CASE = 'proxy.unknown-operation';
export const UNJUDGED_CASE = 'proxy.unjudged';

export class Recorder {
  readonly #cases = new Map<string, Case>();
  readonly #levels = new Map<string, number>();
  readonly #pending = new Set<Promise<void>>();
  readonly #started = performance.now();
  readonly startedAt = new Date();
  #lastLevel: number | null = null;
  #keptChars = 0;
  exchanges = 0;
  judged = 0;
  violations = 0;
  unreachable = 0;
  unjudged = 0;

  constructor(
    private readonly target: string,
    private readonly judge: Judge,
    private readonly catalogue: readonly RuleDef[],
    private readonly live: {
      violation(v: Violation): void;
      level(level: number, who: string): void;
      clean(method: string, path: string, status: number, ms: number): void;
      unjudged(method: string, path: string, reason: string): void;
    },
  ) {}

  /** Called by the forwarder for each finished exchange; judging waits only for a multipart parse. */
  record(c: Captured): void {
    const job = this.#record(c)
      .catch((e: unknown) => this.#unjudged(c, e))
      .finally(() => this.#pending.delete(job));
    this.#pending.add(job);
  }

  /**
   * An answer the judge could not get through (a target's JSON nested past the stack's depth): reported as
   * such rather than left to end the process, which lost every verdict of the run and its reports.
   */
  #unjudged(c: Captured, e: unknown): void {
    this.unjudged += 1;
    const path = redactPath(c.path);
    const reason = e instanceof Error ? e.message : String(e);
    const k = this.#case(UNJUDGED_CASE, 'proxy', 'exchanges the proxy forwarded but could not judge', '1');
    k.result.status = 'error';
    k.result.reason = `${this.unjudged} exchange(s) forwarded but not judged (last: ${reason})`;
    const as = basicUser(header(c.requestHeaders.authorization));
    const exchange: Exchange = {
      method: c.method,
      path,
      as,
      params: {},
      status: c.status,
      headers: {},
      body: null,
      ms: c.ms,
      curl: curlLine(this.target, c.method, path, null, as),
    };
    this.#keep(k, exchange, true);
    this.live.unjudged(c.method, path, reason);
  }

  /** Waits for exchanges still being judged. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  async #record(c: Captured): Promise<void> {
    this.exchanges += 1;
    const user = basicUser(header(c.requestHeaders.authorization));
    const contentType = header(c.requestHeaders['content-type']);
    const params = await requestParams(c.path, contentType, c.requestBody);
    const body = c.unreachable ? null : responseBody(c.responseBody, c.responseHeaders['content-encoding']);
    const shownPath = redactPath(c.path);
    const form = params && c.method !== 'GET' ? redactParams(bodyOnly(params, c.path)) : null;
    const exchange: Exchange = {
      method: c.method,
      path: shownPath,
      as: user,
      params: params ? redactParams(params) : {},
      status: c.status,
      headers: redactHeaders(c.responseHeaders, PROXY_DROPPED_HEADERS),
      body: redactBody(body),
      ms: c.ms,
      curl: curlLine(this.target, c.method, shownPath, form, user),
    };
    if (c.unreachable) {
      this.unreachable += 1;
      const k = this.#case(UNREACHABLE_CASE, 'proxy', 'the target did not answer (the proxy answered 502)', '1');
      k.result.status = 'error';
      k.result.reason = `${this.unreachable} request(s) answered 502: the target did not answer (${c.unreachable})`;
      this.#keep(k, exchange, true);
      return;
    }
    // The level announced to this user's realm (by e-mail domain: one server may host realms at several
    // levels, as the mock does), else the server's (#serverLevel).
    const realm = user ? `@${user.split('@').pop()}` : '';
    const observed = { method: c.method, path: c.path, params, status: c.status, body };
    const announced = this.judge.announcedLevel(observed);
    if (announced !== null) {
      if (this.#levels.get(realm) !== announced) this.live.level(announced, realm || 'anonymous callers');
      this.#levels.set(realm, announced);
      this.#lastLevel = announced;
    }
    // Only the API is judged (the control API, /docs, uploaded files pass through unjudged).
    if (!c.path.split('?')[0]!.startsWith('/api/v1/')) return;
    const verdict = this.judge.judge(observed, this.#levels.get(realm) ?? this.#serverLevel());
    if (verdict.judged.length > 0) this.judged += 1;
    const op = verdict.operation;
    const k = op
      ? this.#case(op.operationId, op.area, `${c.method} ${op.summary}`, op.section)
      : this.#case(UNKNOWN_CASE, 'proxy', 'requests to operations the document does not describe', '1');
    const index = this.#keep(k, exchange, verdict.findings.length > 0);
    for (const rule of verdict.judged) {
      if (!k.result.rules.includes(rule)) k.result.rules.push(rule);
      if (verdict.findings.some((f) => f.rule === rule) || k.passingRules.has(rule)) continue;
      k.passingRules.add(rule);
      k.result.checks.push({ rule, ok: true, message: `judged on ${c.method} ${shownPath.split('?')[0]} → ${c.status}` });
    }
    for (const finding of verdict.findings) {
      this.violations += 1;
      k.failing += 1;
      k.result.status = 'failed';
      if (k.failing <= MAX_FAILING) {
        const check: Check = { rule: finding.rule, ok: false, message: `§${finding.section} ${finding.message}` };
        if (finding.kind) check.kind = finding.kind;
        if (index !== undefined) check.exchange = index;
        k.result.checks.push(check);
      }
      this.live.violation({ finding, exchange, operationId: op?.operationId ?? null });
    }
    if (verdict.findings.length === 0) this.live.clean(c.method, shownPath, c.status, c.ms);
    k.result.ms = Math.round(performance.now() - this.#started) - k.result.at;
  }

  /**
   * The level to judge a realm by that announced none itself: the one level announced so far, to anonymous
   * callers or any realm (a one-realm server, whose users' e-mail domains vary). Once realms announced different
   * levels (the mock's realms), an unannounced realm's level is unknown: judged by the anonymous callers' level
   * (another realm's), every field above it was reported, 418 false violations in a `conform` run through the proxy.
   */
  #serverLevel(): number | null {
    let level: number | null = null;
    for (const announced of this.#levels.values()) {
      if (level !== null && announced !== level) return null;
      level = announced;
    }
    return level;
  }

  #case(id: string, area: string, title: string, section: string): Case {
    let k = this.#cases.get(id);
    if (!k) {
      const result: ScenarioResult = {
        id,
        area,
        title,
        rules: [],
        tags: ['proxy', `§${section}`],
        status: 'passed',
        checks: [],
        exchanges: [],
        at: Math.round(performance.now() - this.#started),
        ms: 0,
      };
      k = { result, passingRules: new Set(), seen: 0, failing: 0 };
      this.#cases.set(id, k);
    }
    return k;
  }

  /** Keeps an exchange within the case's caps; its index, or undefined when it was only counted. */
  #keep(k: Case, x: Exchange, failing: boolean): number | undefined {
    k.seen += 1;
    if (k.result.exchanges.length >= MAX_KEPT + MAX_FAILING || (!failing && k.seen > MAX_KEPT)) return undefined;
    k.result.exchanges.push(this.#bounded(x));
    return k.result.exchanges.length - 1;
  }

  #bounded(x: Exchange): Exchange {
    const text = typeof x.body === 'string' ? x.body : (JSON.stringify(x.body) ?? '');
    if (this.#keptChars + Math.min(text.length, MAX_BODY_CHARS) > BODY_BUDGET_CHARS)
      return {
        ...x,
        body: `<answer of ${text.length} characters not kept: the report's ${BODY_BUDGET_CHARS >> 20} MiB for answers is spent>`,
      };
    this.#keptChars += Math.min(text.length, MAX_BODY_CHARS);
    if (text.length <= MAX_BODY_CHARS) return x;
    return { ...x, body: `${text.slice(0, MAX_BODY_CHARS)}… (${text.length} characters, the first ${MAX_BODY_CHARS} kept)` };
  }

  /** The run so far, as `conform`'s reporters read it. */
  result(): RunResult {
    const scenarios = [...this.#cases.values()].map((k) => ({
      ...k.result,
      ...(k.seen > k.result.exchanges.length ? { reason: `${k.seen} exchanges, ${k.result.exchanges.length} kept in the report` } : {}),
    }));
    const judged = new Set(scenarios.flatMap((s) => s.rules));
    const rules = this.catalogue
      .filter((r) => judged.has(r.id))
      .map((r) => ({
        id: r.id,
        section: r.section,
        text: r.text,
        passed: scenarios.filter((s) => s.status === 'passed' && s.checks.some((c) => c.rule === r.id && c.ok)).map((s) => s.id),
        failed: scenarios.filter((s) => s.status === 'failed' && s.checks.some((c) => c.rule === r.id && !c.ok)).map((s) => s.id),
      }));
    const totals = { passed: 0, failed: 0, error: 0, skipped: 0 };
    for (const s of scenarios) totals[s.status] += 1;
    return {
      target: this.target,
      featureLevel: this.#lastLevel,
      targetKind: 'server',
      startedAt: this.startedAt.toISOString(),
      ms: Math.round(performance.now() - this.#started),
      tiers: ['spec'],
      scenarios,
      rules,
      totals,
    };
  }
}

const header = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** The body's fields alone (the curl line repeats the query in the URL). */
function bodyOnly(params: Record<string, string>, pathAndQuery: string): Record<string, string> {
  const at = pathAndQuery.indexOf('?');
  if (at < 0) return params;
  const query = new URLSearchParams(pathAndQuery.slice(at + 1));
  return Object.fromEntries(Object.entries(params).filter(([k, v]) => query.get(k) !== v));
}

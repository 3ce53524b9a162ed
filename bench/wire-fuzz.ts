import { describeAnswer, exchange, health, isErrorEnvelope, isJson, type Account, type RawAnswer } from './hostile-requests.js';
import { WireFuzz, type FuzzAccounts, type WireCase } from './wire-cases.js';

export { WireFuzz, type FuzzAccounts, type WireCase } from './wire-cases.js';

/**
 * The seeded wire-level fuzzer's runner (its cases: bench/wire-cases.ts), for the hostile-input tests and the soak
 * benchmark. Each case is judged on the properties every hostile request must keep: no 5xx, an answer that is
 * JSON (an error being the `{result: 'error', code, msg}` envelope), the process still up, and an unrelated
 * request sent meanwhile answered within the budget. A failure names the seed and the case number: the cases
 * depend only on the seed and the accounts, so `new WireFuzz(seed, …)` replays them.
 */

/** The demo realm's member and guest, read from the control API (its world file): the accounts the cases use. */
export async function demoAccounts(url: string, token?: string): Promise<FuzzAccounts> {
  const res = await fetch(`${url}/__mock/realms/demo/world`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  const { world } = (await res.json()) as { world: { credentials: Record<string, Account> } };
  const account = (role: string) => ({ email: world.credentials[role]!.email, api_key: world.credentials[role]!.api_key });
  return { member: account('member'), guest: account('guest') };
}

export interface WireFuzzOptions {
  seed: number;
  count: number;
  accounts: FuzzAccounts;
  /** Longest wait accepted for the unrelated request sent while a case is in flight. */
  budgetMs: number;
  /** Longest a whole answer to a case may take (a body that stops is given up after STOPPED_MS). */
  caseTimeoutMs: number;
}

export interface WireFuzzResult {
  cases: number;
  statuses: Record<string, number>;
  /** Each failure names the seed and the case, so `WireFuzz` with that seed replays it. */
  failures: string[];
}

/** How long a body that stops is kept open before this side gives up (the server need not answer it). */
export const STOPPED_MS = 150;
/** After this many failures (or a crash, or a hang) the run stops: what follows would only repeat them. */
const MAX_FAILURES = 10;

/**
 * The server refuses a large body it will not use without reading it (credentials are checked before the body) and
 * closes after its answer; while the client is still sending, TCP may then reset the connection before the client
 * reads that answer (EPIPE, ECONNRESET). Not a failure: the health request after every case still proves the server
 * alive.
 */
const EARLY_REFUSAL_BYTES = 64 * 1024;
function refusedWhileSending(c: WireCase, answer: RawAnswer): boolean {
  const sent = c.chunks.reduce((n, chunk) => n + chunk.length, 0);
  return answer.outcome === 'error' && (answer.error === 'EPIPE' || answer.error === 'ECONNRESET') && sent > EARLY_REFUSAL_BYTES;
}

/** Judges one case's answer; the reasons it fails, none when it passes. */
export function judge(c: WireCase, answer: RawAnswer): string[] {
  // A whole request is owed an answer; a body that stops may be waited for or cut, as the server decides.
  if (answer.outcome !== 'answered') return c.stops || refusedWhileSending(c, answer) ? [] : [describeAnswer(answer)];
  const problems: string[] = [];
  if (answer.status >= 500 || answer.status < 100) problems.push(`status ${answer.status}`);
  if (!isJson(answer)) problems.push('an answer that is not JSON');
  else if (answer.status >= 400 && !isErrorEnvelope(answer)) problems.push('an error without the {result, code, msg} envelope');
  return problems.length ? [`${problems.join(', ')}: ${describeAnswer(answer)}`] : [];
}

/** Runs `count` cases of `seed` against `url`, one at a time, each with an unrelated request sent meanwhile and a health check after. */
export async function runWireFuzz(url: string, options: WireFuzzOptions): Promise<WireFuzzResult> {
  const fuzz = new WireFuzz(options.seed, url, options.accounts);
  const result: WireFuzzResult = { cases: 0, statuses: {}, failures: [] };
  for (let i = 0; i < options.count && result.failures.length < MAX_FAILURES; i++) {
    const c = fuzz.next();
    const where = `seed ${options.seed} case #${c.n} (${c.name})`;
    const sent = exchange(url, c.chunks, { timeoutMs: c.stops ? STOPPED_MS : options.caseTimeoutMs });
    // The unrelated request leaves once the case's bytes are on their way, so it waits behind whatever they cost.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const meanwhile = await health(url, options.budgetMs);
    const answer = await sent;
    result.cases += 1;
    const key = answer.outcome === 'answered' ? String(answer.status) : answer.outcome;
    result.statuses[key] = (result.statuses[key] ?? 0) + 1;
    for (const problem of judge(c, answer)) result.failures.push(`${where}: ${problem}`);
    if (meanwhile.outcome !== 'answered' || meanwhile.status !== 200)
      result.failures.push(
        `${where}: an unrelated request sent meanwhile got ${describeAnswer(meanwhile)} (budget ${options.budgetMs} ms)`,
      );
    const after = await health(url, options.caseTimeoutMs);
    if (after.outcome !== 'answered' || after.status !== 200) {
      result.failures.push(`${where}: the health request afterwards got ${describeAnswer(after)}: the server is down or stuck`);
      break;
    }
  }
  return result;
}

import { dirname, resolve } from 'node:path';
import type { Logger } from 'pino';
import { isLoopbackAddress } from '../../../cli/hosts.js';
import type { ClockMode } from '../clock/clock.js';

/** Everything `teamchat serve` and `createMockServer` can be told (README "CLI"). */
export interface ServerConfig {
  port: number;
  host: string;
  /** lowdb JSON file; null keeps the state in memory only. */
  statePath: string | null;
  /** Fixture of the default realm: `demo` (generated) or a path to an exported realm JSON file. */
  fixture: string;
  /**
   * The only directory from which `fixture` of POST /__mock/realms reads realm export files
   * (control/fixture-file.ts). Absent: the state file's directory, or the working directory in memory.
   */
  fixturesDir?: string;
  seed: number;
  /** Feature level of the default realm; absent: as stored, or the newest for a new realm. */
  featureLevel?: number;
  /** The realm that anonymous requests and `npm start` use. */
  defaultRealm: string;
  /** Serve the control API under /__mock/. */
  control: boolean;
  /**
   * Bearer token the control API requires. Required when the server listens on any address
   * other than loopback (the control API hands out every realm's API keys and can delete realms);
   * without one such a server refuses to start (`controlExposure`). On loopback it is optional.
   */
  controlToken?: string;
  /**
   * Host names (besides IP addresses, `localhost` and `host`) that the control API and the inspector answer
   * (`--allow-host`, http/owner-guard.ts): any other Host header is refused, which defeats DNS rebinding.
   */
  allowHosts?: readonly string[];
  /**
   * Web origins (`http://localhost:3000`) whose pages may call /api/v1 and /user_uploads from a browser
   * (`--cors-origin`, http/cors.ts). None by default; the control API and the inspector never answer cross-origin.
   */
  corsOrigins?: readonly string[];
  /** Live realms at most: creating one more answers a clear error. */
  maxRealms: number;
  /** Live event queues per user at most: register answers a clear error at the cap. */
  maxQueuesPerUser: number;
  clock: ClockMode;
  /** Start time of a frozen clock (UNIX seconds); the machine's time when absent. */
  clockStart?: number;
  /**
   * Where new realms start (UNIX seconds) unless POST /__mock/realms names an `epoch`: with a frozen
   * clock, realms whose answers are byte-identical run after run. Absent: realms start at the current
   * time and follow the wall clock (a realm export at its recorded time).
   */
  epoch?: number;
  /**
   * Size of the default realm when generated from the demo fixture (`--messages/--users/--channels`,
   * fixtures/size.ts): absent fields keep the demo realm's own. Bigger realms add generated people,
   * channels and messages to the demo's.
   */
  size?: { messages?: number; users?: number; channels?: number };
  /**
   * Where made products are cached (the dereferenced document, demo realm templates; config/cache.ts):
   * null for none. Absent: TEAMCHAT_CACHE_DIR, else `cache/` beside the state file, else none (in memory).
   */
  cacheDir?: string | null;
  /** Regenerate the default realm from its fixture at start-up, even if the state file holds it. */
  reset: boolean;
  openapiPath?: string;
  /** 'fsync' (default) or 'write': what "durable" waits for. */
  durability: 'fsync' | 'write';
  /**
   * Largest uploaded file, MiB (POST /user_uploads; register's max_file_upload_size_mib). Default: the
   * reference server's 25.
   */
  maxFileUploadMib: number;
  /**
   * Bytes of uploaded files one realm may hold, MiB: files live in the state (and, with --in-memory, in
   * memory), so this bounds what uploads can take. The reference has no quota by default.
   */
  uploadQuotaMib: number;
  /**
   * Milliseconds a request may take to arrive, headers and body (Node's `requestTimeout`): a body that stops
   * arriving is answered 408 and its connection closed, so a stalled client holds no memory. A long-poll
   * (GET /events) is not affected: its request arrives at once, only its answer waits.
   */
  bodyTimeoutMs: number;
  /** Uploads in progress at once, server-wide and per user (http/upload-slots.ts): each may buffer a whole file. */
  maxPendingUploads: number;
  maxPendingUploadsPerUser: number;
  /**
   * Where the inspector page (GET /) looks for the latest conformance report: the directory `teamchat conform`
   * writes to by default, `reports/conformance` under the server's working directory, when absent.
   */
  reportDir?: string;
  /**
   * A pino logger that gets one line per request (http/request-log.ts; `teamchat serve` makes one from
   * --log-level and --log-format). Absent: no request log, and no cost per request.
   */
  requestLog?: Logger;
  /**
   * The reference server's per-user rate limit, for every realm unless the control API sets a realm's own
   * (faults/rate-limit.ts): null (the default) for none, so no answer carries `X-RateLimit-*` headers.
   */
  rateLimit: RateLimitSetting | null;
}

/** A budget of `requests` per user in any window of `seconds` (realm time). */
export interface RateLimitSetting {
  requests: number;
  seconds: number;
}

/** The reference server's default rule (zproject/default_settings.py `api_by_user`: 200 requests per 60 s). */
export const REFERENCE_RATE_LIMIT: RateLimitSetting = Object.freeze({ requests: 200, seconds: 60 });

/** Bounds of a setting: a user's window keeps at most `requests` times, so the cap bounds its memory. */
export const MAX_RATE_LIMIT_REQUESTS = 10_000;
export const MAX_RATE_LIMIT_SECONDS = 86_400;

/** Why a rate-limit setting is refused (a sentence naming the way out), or null. */
export function rateLimitProblem(setting: { requests?: unknown; seconds?: unknown }): string | null {
  const { requests, seconds } = setting;
  if (!Number.isSafeInteger(requests) || (requests as number) < 1 || (requests as number) > MAX_RATE_LIMIT_REQUESTS)
    return `The rate limit's requests must be a whole number from 1 to ${MAX_RATE_LIMIT_REQUESTS}.`;
  if (!Number.isSafeInteger(seconds) || (seconds as number) < 1 || (seconds as number) > MAX_RATE_LIMIT_SECONDS)
    return `The rate limit's seconds must be a whole number from 1 to ${MAX_RATE_LIMIT_SECONDS}.`;
  return null;
}

/**
 * `N/S` (`--rate-limit 200/60`): N requests per S seconds. Throws `Refusal` (the CLI's usage error) whose message
 * says what to pass.
 */
export function parseRateLimit(text: string, Refusal: new (message: string) => Error = Error): RateLimitSetting {
  const match = /^(\d{1,9})\/(\d{1,9})$/.exec(text.trim());
  if (!match) throw new Refusal(`A rate limit is N/S, N requests per S seconds (the reference's default: 200/60).`);
  const setting = { requests: Number(match[1]), seconds: Number(match[2]) };
  const problem = rateLimitProblem(setting);
  if (problem) throw new Refusal(problem);
  return setting;
}

export const DEFAULT_CONFIG: ServerConfig = {
  port: 9991,
  host: '127.0.0.1',
  statePath: '.teamchat/state.json',
  fixture: 'demo',
  seed: 42,
  defaultRealm: 'demo',
  control: true,
  maxRealms: 100,
  maxQueuesPerUser: 1_000,
  clock: 'system',
  reset: false,
  durability: 'fsync',
  maxFileUploadMib: 25,
  uploadQuotaMib: 100,
  bodyTimeoutMs: 60_000,
  maxPendingUploads: 8,
  maxPendingUploadsPerUser: 4,
  rateLimit: null,
};

/** Where request-named fixture files are read from (see `fixturesDir`). */
export function fixturesDirOf(config: Pick<ServerConfig, 'fixturesDir' | 'statePath'>): string {
  if (config.fixturesDir !== undefined) return resolve(config.fixturesDir);
  return config.statePath === null ? process.cwd() : dirname(resolve(config.statePath));
}

/**
 * Why this configuration may not start, or null: a control API reachable from other machines without
 * a token would let anyone who can reach the port read every realm's API keys and reset or delete realms.
 */
export function controlExposure(config: Pick<ServerConfig, 'host' | 'control' | 'controlToken'>): string | null {
  if (!config.control || config.controlToken || isLoopbackAddress(config.host)) return null;
  return `the control API would be open to every machine that reaches ${config.host}: pass --control-token <token> (or set TEAMCHAT_CONTROL_TOKEN), or --no-control`;
}

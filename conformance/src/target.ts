import { request } from 'undici';
import { isObject } from './answer.js';
import { rateLimitWaitMs, RATE_LIMIT_PATIENCE_MS, RATE_LIMIT_RETRIES } from './client.js';
import { DEMO_WORLD_PATH, loadWorld, validateWorld, type World } from './world.js';

export class TargetError extends Error {}

/** An isolated realm made through the mock's control API for one scenario. */
export interface IsolatedRealm {
  realmId: string;
  world: World;
  featureLevel: number;
}

/**
 * What the suite talks to: a base URL, the world file that describes it, its feature level (read from
 * register's service_feature_level, spec §4.21, §9), and whether it offers the mock's control API
 * (`/__mock/`: isolated realms, realm clocks). A real server has no control API: scenarios that need
 * one are skipped with that reason (or run in real time with --slow).
 */
export class Target {
  private constructor(
    readonly baseUrl: string,
    readonly world: World,
    readonly featureLevel: number,
    readonly control: boolean,
    /** Bearer token of the mock's control API, when it has one (`teamchat serve --control-token`). */
    private readonly controlToken?: string,
  ) {}

  static async connect(baseUrl: string, worldPath?: string, controlToken?: string): Promise<Target> {
    const base = baseUrl.replace(/\/+$/, '');
    const control = await hasControlApi(base, controlToken);
    let world: World;
    if (worldPath) world = await loadWorld(worldPath);
    else if (control) {
      const path = '/__mock/realms/demo/world';
      world = await validateWorld(await controlJson(base, 'GET', path, controlToken).then((r) => r.world), `${base}${path}`);
    } else world = await loadWorld(DEMO_WORLD_PATH);
    const level = await readFeatureLevel(base, world, worldPath);
    return new Target(base, world, level, control, controlToken);
  }

  /** A fresh realm from the demo fixture at a feature level (control API only). */
  async createRealm(featureLevel?: number): Promise<IsolatedRealm> {
    const body = await controlJson(
      this.baseUrl,
      'POST',
      '/__mock/realms',
      this.controlToken,
      featureLevel === undefined ? {} : { feature_level: featureLevel },
    );
    const world = await validateWorld(body.world, 'control API realm');
    const { realm_id: realmId, feature_level: level } = body;
    if (typeof realmId !== 'string' || typeof level !== 'number')
      throw new TargetError(
        `control API POST /__mock/realms answered without realm_id or feature_level: ${JSON.stringify(body).slice(0, 300)}`,
      );
    return { realmId, world, featureLevel: level };
  }

  async deleteRealm(realmId: string): Promise<void> {
    await controlJson(this.baseUrl, 'DELETE', `/__mock/realms/${encodeURIComponent(realmId)}`, this.controlToken);
  }

  /** Moves a realm's clock; due timers (heartbeats, queue expiry, deliveries) fire before this answers. */
  async advanceClock(realmId: string, seconds: number): Promise<void> {
    await controlJson(this.baseUrl, 'POST', `/__mock/realms/${encodeURIComponent(realmId)}/clock/advance`, this.controlToken, { seconds });
  }
}

/**
 * Whether the target offers the mock's control API. A mock listening beyond loopback guards it with a
 * token (401 without the right one): that is a setup mistake to name, not a server without control.
 * Anything else counts only when `/__mock/` answers as the mock does (`isMockStatus`): a server whose
 * catch-all answers 200 there is a server, and the suite never asks it for realms or a world file.
 */
async function hasControlApi(base: string, token: string | undefined): Promise<boolean> {
  let status: number;
  let text: string;
  try {
    const res = await request(`${base}/__mock/`, {
      method: 'GET',
      headers: { ...bearer(token), ...CONTROL_HEADER },
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    status = res.statusCode;
    text = await res.body.text();
  } catch (e) {
    throw new TargetError(`cannot reach ${base}: ${(e as Error).message}`);
  }
  if (status === 403 && text.includes('--allow-host')) {
    throw new TargetError(
      `the target's control API refuses the host name of ${base} (it answers IP addresses, localhost and its --host): start it with --allow-host ${new URL(base).hostname}, or use its address`,
    );
  }
  if (status === 401 && text.includes('control token')) {
    throw new TargetError(
      token
        ? `the target's control API refused the control token given (--control-token or TEAMCHAT_CONTROL_TOKEN)`
        : `the target's control API needs its token: pass --control-token <token> or set TEAMCHAT_CONTROL_TOKEN`,
    );
  }
  return isMockStatus(status, text);
}

/**
 * The mock's `GET /__mock/` answer (docs/control-api.md): its envelope with `service` naming teamchat-kit, the
 * realms (each with its ID and feature level) and the server clock. All of it, so that no catch-all passes.
 */
export function isMockStatus(status: number, text: string): boolean {
  if (status !== 200) return false;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return false;
  }
  if (!isObject(body) || body.result !== 'success') return false;
  const { service, realms, clock } = body;
  return (
    typeof service === 'string' &&
    service.startsWith('teamchat-kit ') &&
    Array.isArray(realms) &&
    realms.every((r) => isObject(r) && typeof r.realm_id === 'string' && Number.isInteger(r.feature_level)) &&
    isObject(clock) &&
    typeof clock.server_now === 'number'
  );
}

const bearer = (token: string | undefined): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});
const CONTROL_HEADER = { 'x-teamchat-control': '1' };

async function controlJson(
  base: string,
  method: string,
  path: string,
  token: string | undefined,
  body?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  let res;
  try {
    res = await request(base + path, {
      method: method as 'GET',
      // The mock takes a control call that changes something only as JSON or with its header (what a web page
      // of another site cannot send); every call carries the header, so a bodiless DELETE passes too.
      headers: { ...bearer(token), ...CONTROL_HEADER, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      // Clock moves answer once due deliveries are durable; a hung control API must not stall the run.
      headersTimeout: 60_000,
      bodyTimeout: 60_000,
    });
  } catch (e) {
    throw new TargetError(`control API ${method} ${path}: ${(e as Error).message}`);
  }
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new TargetError(`control API ${method} ${path} answered ${res.statusCode}: ${text.slice(0, 300)}`);
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    // Not a JSON object: below.
  }
  if (!isObject(answer))
    throw new TargetError(`control API ${method} ${path} answered ${res.statusCode} without a JSON object: ${text.slice(0, 300)}`);
  return answer;
}

/** An answer to one of the probes below: its status, content type and JSON body (null when not a JSON object). */
interface Probed {
  status: number;
  type: string;
  body: Record<string, unknown> | null;
  text: string;
}

/** Every answer of the API is its JSON envelope (spec §1, §7): an object whose `result` is success or error. */
const isEnvelope = (a: Probed): boolean => a.body !== null && (a.body.result === 'success' || a.body.result === 'error');

/** "501 text/html", "200 application/json, not the API's envelope": what a probe got, in a few words. */
function answered(a: Probed): string {
  const type = a.type.split(';')[0]!.trim() || 'without a content type';
  return `${a.status} ${type}${a.body !== null && !isEnvelope(a) ? ", not the API's envelope" : ''}`;
}

async function probe(url: string, init: { method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string }): Promise<Probed> {
  let res: Awaited<ReturnType<typeof request>>;
  let text: string;
  // A rate-limited target (the world's member spent its budget in an earlier run) is waited for, as the suite's client does.
  for (let attempt = 0, waited = 0; ; attempt++) {
    try {
      res = await request(url, { ...init, headersTimeout: 30_000, bodyTimeout: 30_000 });
    } catch (e) {
      throw new TargetError(`cannot reach ${new URL(url).origin}: ${(e as Error).message}`);
    }
    text = await res.body.text();
    const wait = res.statusCode === 429 ? rateLimitWaitMs(res.headers, text) : 0;
    if (res.statusCode !== 429 || attempt >= RATE_LIMIT_RETRIES || waited + wait > RATE_LIMIT_PATIENCE_MS) break;
    waited += wait;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
  let body: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (isObject(parsed)) body = parsed;
  } catch {
    // Not JSON: `answered` says what it was.
  }
  const type = res.headers['content-type'];
  return { status: res.statusCode, type: Array.isArray(type) ? type.join(', ') : (type ?? ''), body, text };
}

/**
 * Why register as the world's member failed, as one line that names the cause: a target URL with the API's own
 * prefix, a target that does not speak the API at all (register and the anonymous GET /api/v1/server_settings both
 * answer something other than the envelope: a 501 page, a 404, HTML), or an answer of the API refusing the
 * credentials. The world file is named only when credentials are what failed.
 */
async function registerFailure(base: string, register: Probed, worldPath: string | undefined): Promise<string> {
  if (/\/api\/v1$/.test(new URL(base).pathname))
    return `${base} ends with the API's own prefix: drop the /api/v1 suffix from the target URL: the suite adds it`;
  if (!isEnvelope(register)) {
    const settings = await probe(`${base}/api/v1/server_settings`, { method: 'GET' });
    if (!isEnvelope(settings))
      return `the target at ${base} does not answer the Team Chat API (POST /api/v1/register answered ${answered(register)}; GET /api/v1/server_settings answered ${answered(settings)})`;
    return `POST ${base}/api/v1/register answered ${answered(register)}, though GET /api/v1/server_settings answers the API's envelope`;
  }
  const refusal = `register as the world's member failed (${register.status}): ${register.text.slice(0, 300)}`;
  // Spec §5: a request the server cannot authenticate is a 401; anything else is the target's own answer.
  if (register.status === 401) {
    return worldPath
      ? `${refusal}; check the credentials in ${worldPath}`
      : `${refusal}; no --world file was given, so the demo realm's credentials were sent: pass --world FILE describing the target`;
  }
  if (register.status === 404) return `${refusal}; the target has no POST /api/v1/register: give the base URL of a Team Chat server`;
  return refusal;
}

/** Spec §4.21: register always returns service_feature_level; the queue it makes is deleted at once. */
async function readFeatureLevel(base: string, world: World, worldPath: string | undefined): Promise<number> {
  const who = world.credentials.member;
  const authorization = `Basic ${Buffer.from(`${who.email}:${who.api_key}`).toString('base64')}`;
  const form = new URLSearchParams({ event_types: '["drafts"]', fetch_event_types: '[]' }).toString();
  const register = await probe(`${base}/api/v1/register`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  const body = register.body;
  if (body === null || body.result !== 'success') throw new TargetError(await registerFailure(base, register, worldPath));
  if (typeof body.queue_id === 'string') {
    await request(`${base}/api/v1/events?${new URLSearchParams({ queue_id: body.queue_id })}`, {
      method: 'DELETE',
      headers: { authorization },
    }).then((r) => r.body.text());
  }
  const level = body.service_feature_level;
  return typeof level === 'number' ? level : (world.feature_level ?? 0);
}

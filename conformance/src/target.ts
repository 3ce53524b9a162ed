import { request } from 'undici';
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
    return { realmId: body.realm_id as string, world, featureLevel: body.feature_level as number };
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
 */
async function hasControlApi(base: string, token: string | undefined): Promise<boolean> {
  let status: number;
  let text: string;
  try {
    const res = await request(`${base}/__mock/`, {
      method: 'GET',
      headers: { ...bearer(token), ...CONTROL_HEADER },
      headersTimeout: 10_000,
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
  return status === 200 && text.trimStart().startsWith('{');
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
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * What to do when register does not work: the commonest mistakes get a precise hint (a target URL with
 * the API's own prefix, a server that is not a Team Chat server, the demo's credentials sent to a real one).
 */
function registerHint(base: string, status: number, worldPath: string | undefined): string {
  if (/\/api\/v1$/.test(new URL(base).pathname)) return 'drop the /api/v1 suffix from the target URL: the suite adds it';
  if (status === 404) return 'the target has no POST /api/v1/register: give the base URL of a Team Chat server';
  if (worldPath) return `check the credentials in ${worldPath}`;
  return "no --world file was given, so the demo realm's credentials were sent: pass --world FILE describing the target";
}

/** Spec §4.21: register always returns service_feature_level; the queue it makes is deleted at once. */
async function readFeatureLevel(base: string, world: World, worldPath: string | undefined): Promise<number> {
  const who = world.credentials.member;
  const authorization = `Basic ${Buffer.from(`${who.email}:${who.api_key}`).toString('base64')}`;
  const form = new URLSearchParams({ event_types: '["drafts"]', fetch_event_types: '[]' }).toString();
  let res;
  try {
    res = await request(`${base}/api/v1/register`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
  } catch (e) {
    throw new TargetError(`cannot reach ${base}: ${(e as Error).message}`);
  }
  const text = await res.body.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new TargetError(
      `${base}/api/v1/register did not answer JSON (status ${res.statusCode}); ${registerHint(base, res.statusCode, worldPath)}`,
    );
  }
  if (body.result !== 'success')
    throw new TargetError(
      `register as the world's member failed (${res.statusCode}): ${text.slice(0, 300)}; ${registerHint(base, res.statusCode, worldPath)}`,
    );
  if (typeof body.queue_id === 'string') {
    await request(`${base}/api/v1/events?${new URLSearchParams({ queue_id: body.queue_id })}`, {
      method: 'DELETE',
      headers: { authorization },
    }).then((r) => r.body.text());
  }
  const level = body.service_feature_level;
  return typeof level === 'number' ? level : (world.feature_level ?? 0);
}

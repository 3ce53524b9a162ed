import { request } from 'undici';
import { describeRequest, sendFuzz, type FuzzGenerator, type FuzzWorld, type Who } from './fuzz-requests.js';

/**
 * The operations the soak benchmark repeats, shared with its short versions in `npm test`
 * (mock-server/test/soak/): realms made and deleted through the control API, a linkifier's whole
 * life with renders that must use it, and runs of fuzz requests. Each reports what went wrong as
 * text naming the request, so a failure can be replayed. Loopback only.
 */

export interface Outcome {
  /** HTTP requests sent. */
  requests: number;
  /** Answers with a 5xx status (or no answer at all), each described. */
  serverErrors: string[];
  /** Operations that did not do what they should (a refused create, a render without the link, …). */
  failures: string[];
}

export const emptyOutcome = (): Outcome => ({ requests: 0, serverErrors: [], failures: [] });

export function addOutcome(total: Outcome, part: Outcome): void {
  total.requests += part.requests;
  total.serverErrors.push(...part.serverErrors);
  total.failures.push(...part.failures);
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

async function send(
  url: string,
  method: string,
  path: string,
  opts: { who?: Who; form?: Record<string, string>; json?: unknown } = {},
): Promise<Answer> {
  // The control API takes a bodiless call that changes something (DELETE) only with its header.
  const headers: Record<string, string> = path.startsWith('/__mock/') ? { 'x-teamchat-control': '1' } : {};
  if (opts.who) headers.authorization = `Basic ${Buffer.from(`${opts.who.email}:${opts.who.api_key}`).toString('base64')}`;
  let body: string | undefined;
  if (opts.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  } else if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  try {
    const res = await request(url + path, { method: method as 'GET', headers, body, headersTimeout: 60_000, bodyTimeout: 60_000 });
    const text = await res.body.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // Not JSON: the caller sees the status and the text.
    }
    return { status: res.statusCode, body: parsed, text };
  } catch (e) {
    return { status: 0, body: {}, text: `transport error: ${(e as Error).message}` };
  }
}

/** Records a request's answer in `out`; true when it is the expected 200. */
function check(out: Outcome, what: string, answer: Answer): boolean {
  out.requests += 1;
  if (answer.status >= 500 || answer.status === 0) out.serverErrors.push(`${what} → ${answer.status} ${answer.text.slice(0, 200)}`);
  if (answer.status === 200 || answer.status === 201) return true;
  out.failures.push(`${what} → ${answer.status} ${answer.text.slice(0, 200)}`);
  return false;
}

/** Memory of the server process (GET /__mock/: collected first when it runs with --expose-gc). */
export async function serverMemory(url: string): Promise<{ rss: number; heapUsed: number }> {
  const status = await send(url, 'GET', '/__mock/');
  const memory = status.body.memory as { rss: number; heap_used: number };
  return { rss: memory.rss, heapUsed: memory.heap_used };
}

export interface CreatedRealm {
  realmId: string;
  world: FuzzWorld;
}

/** A realm from the demo fixture; null (and a failure recorded) when the server refuses. */
export async function createRealm(url: string, out: Outcome): Promise<CreatedRealm | null> {
  const answer = await send(url, 'POST', '/__mock/realms', { json: {} });
  if (!check(out, 'POST /__mock/realms', answer)) return null;
  return { realmId: String(answer.body.realm_id), world: answer.body.world as FuzzWorld };
}

export async function deleteRealm(url: string, realmId: string, out: Outcome): Promise<void> {
  check(out, `DELETE /__mock/realms/${realmId}`, await send(url, 'DELETE', `/__mock/realms/${encodeURIComponent(realmId)}`));
}

/** One realm's whole life: created, its world read, deleted. */
export async function realmCycle(url: string): Promise<Outcome> {
  const out = emptyOutcome();
  const realm = await createRealm(url, out);
  if (!realm) return out;
  check(
    out,
    `GET /__mock/realms/${realm.realmId}/world`,
    await send(url, 'GET', `/__mock/realms/${encodeURIComponent(realm.realmId)}/world`),
  );
  await deleteRealm(url, realm.realmId, out);
  return out;
}

/**
 * Linkifier `i`'s life: created, rendered (links), changed to a new pattern and template, rendered
 * (links with the new template), deleted, rendered (no longer links). Every cycle uses a pattern of
 * its own, so each compiles a new program: what exhausted re2-wasm's heap before programs were freed explicitly.
 */
export async function linkifierCycle(url: string, admin: Who, i: number): Promise<Outcome> {
  const out = emptyOutcome();
  const render = async (content: string, href: string, expected: boolean) => {
    const answer = await send(url, 'POST', '/api/v1/messages/render', { who: admin, form: { content } });
    if (!check(out, `cycle ${i}: POST /api/v1/messages/render content=${JSON.stringify(content)}`, answer)) return;
    const links = String(answer.body.rendered).includes(`href="${href}"`);
    if (links !== expected)
      out.failures.push(
        `cycle ${i}: render of ${JSON.stringify(content)} ${expected ? 'has no' : 'still has a'} link to ${href}: ${String(answer.body.rendered)}`,
      );
  };
  const first = { pattern: `SOAK${i}-(?P<id>[0-9]+)`, url_template: `https://tracker.example.com/soak/${i}/{id}` };
  const created = await send(url, 'POST', '/api/v1/realm/filters', { who: admin, form: first });
  if (!check(out, `cycle ${i}: POST /api/v1/realm/filters ${JSON.stringify(first)}`, created)) return out;
  const id = Number(created.body.id);
  await render(`see SOAK${i}-7`, `https://tracker.example.com/soak/${i}/7`, true);
  const second = { pattern: `SOAKU${i}-(?P<id>[0-9]+)`, url_template: `https://tracker.example.com/soak/${i}/u/{id}` };
  check(
    out,
    `cycle ${i}: PATCH /api/v1/realm/filters/${id} ${JSON.stringify(second)}`,
    await send(url, 'PATCH', `/api/v1/realm/filters/${id}`, { who: admin, form: second }),
  );
  await render(`see SOAKU${i}-8`, `https://tracker.example.com/soak/${i}/u/8`, true);
  check(out, `cycle ${i}: DELETE /api/v1/realm/filters/${id}`, await send(url, 'DELETE', `/api/v1/realm/filters/${id}`, { who: admin }));
  await render(`see SOAKU${i}-9`, `https://tracker.example.com/soak/${i}/u/9`, false);
  return out;
}

/**
 * `count` fuzz requests, one at a time so a seed replays the same sequence, in realms made for the
 * purpose: a fresh one every `realmEvery` requests, since the fuzz may deactivate or demote its users.
 */
export async function fuzzRun(
  url: string,
  generator: FuzzGenerator,
  count: number,
  realmEvery = 1_000,
): Promise<Outcome & { statuses: Record<number, number> }> {
  const out = { ...emptyOutcome(), statuses: {} as Record<number, number> };
  // The realms' own requests are not fuzz: their problems are reported, their count is not added.
  const control = emptyOutcome();
  let realm: CreatedRealm | null = null;
  for (let i = 0; i < count; i++) {
    if (i % realmEvery === 0) {
      if (realm) await deleteRealm(url, realm.realmId, control);
      realm = await createRealm(url, control);
    }
    if (!realm) break;
    const r = generator.next(realm.world);
    const answer = await sendFuzz(url, r);
    out.requests += 1;
    out.statuses[answer.status] = (out.statuses[answer.status] ?? 0) + 1;
    if (answer.status >= 500 || answer.status === 0)
      out.serverErrors.push(`${describeRequest(r)} → ${answer.status} ${answer.text.slice(0, 200)}`);
  }
  if (realm) await deleteRealm(url, realm.realmId, control);
  out.serverErrors.push(...control.serverErrors);
  out.failures.push(...control.failures);
  return out;
}

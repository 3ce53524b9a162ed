import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeAnswer,
  exchange,
  form,
  FORM_TYPE,
  health,
  httpRequest,
  isErrorEnvelope,
  JSON_TYPE,
  multipart,
  type RawAnswer,
  type RequestParts,
} from '../../../bench/hostile-requests.js';
import { ControlClient } from '../../src/control/client.js';
import { built, cleanUp, serve, type Program } from './spawned.js';

/**
 * The control API and the inspector take orders from the developer only. A web page of another site can send a
 * form (URL-encoded or multipart) or a text/plain body without a CORS preflight, and with DNS rebinding reach the
 * mock under its own name (a foreign Host): none of these may change or read anything. `fixture` reads fixtures,
 * never devices or any file of the machine. A control token stays out of the request log at every level.
 * Each against the compiled `teamchat serve` (frozen clock, so a realm's time moves only when something moves it).
 */
const ANSWER_MS = 3_000;
const EVIL = 'http://evil.example';

let server: Program;
let control: ControlClient;

beforeAll(async () => {
  built();
  server = await serve(['--clock', 'frozen']);
  control = new ControlClient(server.url);
}, 240_000);
afterAll(cleanUp);

const send = (parts: RequestParts, url = server.url) => exchange(url, [httpRequest(url, parts)], { timeoutMs: ANSWER_MS });

function expectRefused(answer: RawAnswer, what: string): void {
  const said = `${what}: ${describeAnswer(answer)}`;
  expect(answer.outcome, said).toBe('answered');
  expect(answer.status, said).toBeGreaterThanOrEqual(400);
  expect(answer.status, said).toBeLessThan(500);
  expect(isErrorEnvelope(answer), said).toBe(true);
}

/** What a cross-site page could change: the realms, the demo realm's clock, its snapshots. */
async function observable() {
  return {
    realms: (await control.listRealms()).map((r) => r.realm_id).sort(),
    clock: await control.clock('demo'),
    snapshots: await control.listSnapshots('demo'),
  };
}

describe('what a page of another site can send without a preflight changes nothing', () => {
  const fields = { realm_id: 'evil', seconds: '86400', name: 'evil', event: '{"type":"evil"}' };
  const formData = multipart(
    'cross',
    Object.entries(fields).map(([name, content]) => ({ name, content })),
  );
  const bodies: [string, [string, string], string | Buffer][] = [
    ['a URL-encoded form', FORM_TYPE, form(fields)],
    ['a multipart form', formData.type, formData.body],
    ['a text/plain JSON body', ['Content-Type', 'text/plain'], JSON.stringify({ ...fields, seconds: 86400 })],
    [
      'a text/plain JSON body with no Origin (a proxy dropped it)',
      ['Content-Type', 'text/plain;charset=UTF-8'],
      JSON.stringify({ ...fields, seconds: 86400 }),
    ],
  ];
  const paths = [
    '/__mock/realms',
    '/__mock/realms/demo/clock/advance',
    '/__mock/realms/demo/snapshots',
    '/__mock/realms/demo/events',
    '/__mock/clock/advance',
  ];

  for (const [what, type, body] of bodies) {
    it(`${what}, to every mutating control path`, async () => {
      const before = await observable();
      for (const path of paths) {
        const origin: [string, string][] = what.includes('no Origin') ? [] : [['Origin', EVIL]];
        expectRefused(await send({ method: 'POST', path, headers: [type, ...origin], body }), `${what} to ${path}`);
      }
      expect(await observable()).toEqual(before);
    });
  }

  it('the developer’s own tools still work: the control client creates, snapshots and deletes a realm', async () => {
    const realm = await control.createRealm({ realm_id: 'own-tools' });
    expect(realm.realm_id).toBe('own-tools');
    await control.saveSnapshot('own-tools', 'before');
    expect(await control.listSnapshots('own-tools')).toEqual(['before']);
    await control.deleteRealm('own-tools');
    expect((await control.listRealms()).map((r) => r.realm_id)).not.toContain('own-tools');
  });
});

describe('a foreign Host (DNS rebinding) reads nothing', () => {
  const port = () => new URL(server.url).port;
  const hosts = ['rebind.evil.example:PORT', 'evil.example', 'localhost.evil.example:PORT'];
  for (const template of hosts) {
    it(`Host ${template}: credentials, world and realms are refused, without an API key in the answer`, async () => {
      const host = template.replace('PORT', port());
      const keys = (await control.credentials('demo')).map((c) => c.api_key);
      for (const path of [
        '/__mock/realms/demo/credentials',
        '/__mock/realms/demo/world',
        '/__mock/realms',
        '/__mock/',
        '/__inspector/exchanges/1',
      ]) {
        const answer = await send({ method: 'GET', path, host });
        expectRefused(answer, `GET ${path} with Host ${host}`);
        for (const key of keys) expect(answer.body).not.toContain(key);
      }
      const created = await send({ method: 'POST', path: '/__mock/realms', host, headers: [JSON_TYPE], body: '{"realm_id":"rebound"}' });
      expectRefused(created, `POST /__mock/realms with Host ${host}`);
      expect((await control.listRealms()).map((r) => r.realm_id)).not.toContain('rebound');
    });
  }
});

describe('snapshots are bounded', () => {
  it('a snapshot name of 100,000 characters is refused, and no snapshot is saved', async () => {
    const before = await control.listSnapshots('demo');
    const answer = await send({
      method: 'POST',
      path: '/__mock/realms/demo/snapshots',
      headers: [JSON_TYPE],
      body: JSON.stringify({ name: 's'.repeat(100_000) }),
    });
    expectRefused(answer, 'a 100,000-character snapshot name');
    expect(await control.listSnapshots('demo')).toEqual(before);
  });
});

describe('`fixture` of POST /__mock/realms reads only fixtures', () => {
  it('refuses a device, a system file, a directory and a missing path alike, quickly, without their content, memory unchanged', async () => {
    // A server of its own, killed at the end whatever happened: reading /dev/zero whole (the bug) grows it by gigabytes.
    const own = await serve();
    try {
      // The realms without their `now`: the server's clock runs, and a busy machine can see it tick between the two reads.
      const realms = async () =>
        (JSON.parse((await send({ method: 'GET', path: '/__mock/realms' }, own.url)).body) as { realms: { now?: number }[] }).realms.map(
          ({ now: _now, ...realm }) => realm,
        );
      const before = await realms();
      const rss = own.rss();
      const answers: RawAnswer[] = [];
      for (const fixture of ['/etc/passwd', '/etc', '/nonexistent/teamchat-fixture.json', '/dev/zero']) {
        const answer = await send(
          { method: 'POST', path: '/__mock/realms', headers: [JSON_TYPE], body: JSON.stringify({ fixture }) },
          own.url,
        );
        expectRefused(answer, `fixture ${fixture}`);
        expect(answer.body, `fixture ${fixture}`).not.toMatch(/root:|daemon:|\\u0000/);
        answers.push(answer);
      }
      // One answer for all four: the answer says nothing of what exists on the machine.
      expect(new Set(answers.map((a) => `${a.status} ${(JSON.parse(a.body) as { code: string }).code}`)).size).toBe(1);
      const grown = (own.rss() ?? 0) - (rss ?? 0);
      expect(grown, `RSS grew by ${Math.round(grown / 1024 / 1024)} MiB`).toBeLessThan(64 * 1024 * 1024);
      expect(await realms()).toEqual(before);
      expect((await health(own.url, ANSWER_MS)).status).toBe(200);
    } finally {
      own.kill();
    }
  });
});

describe('the control token', () => {
  it('appears in no output line at --log-level debug, whether sent as ?token= or as a bearer token', async () => {
    const token = 'hostile-test-control-token-3f9c2a';
    const logged = await serve(['--control-token', token, '--log-level', 'debug', '--log-format', 'json']);
    const banner = logged.output().length;
    for (const path of [`/?token=${token}`, `/__mock/?token=${token}`, `/__mock/realms?Token=${token}&access_token=${token}`]) {
      await send({ method: 'GET', path, headers: [['Accept', 'application/json']] }, logged.url);
    }
    await send({ method: 'GET', path: '/__mock/realms', headers: [['Authorization', `Bearer ${token}`]] }, logged.url);
    await send(
      {
        method: 'POST',
        path: '/__mock/realms',
        headers: [['Authorization', `Bearer ${token}`], JSON_TYPE],
        body: JSON.stringify({ token }),
      },
      logged.url,
    );
    // The request log writes a line once an answer's connection has closed: these have.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const log = logged.output().slice(banner);
    expect(log.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(5);
    expect(log.split('\n').filter((line) => line.includes(token))).toEqual([]);
  });
});

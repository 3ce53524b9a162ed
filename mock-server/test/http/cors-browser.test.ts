import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumPath } from '../../../tools/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { basic, credentials, startTestServer, type Who } from '../helpers/test-server.js';

/**
 * Browser clients the developer names, and nobody else (http/cors.ts, http/owner-guard.ts), in a real browser:
 * Chromium (tools/chromium.ts) driven by playwright-core, as the other browser tests do. A web client under development is a
 * page of a second loopback server; the mock lists its origin with `corsOrigins`. A page of a third server (another
 * origin) tries the same calls, and a cross-site form and a no-cors fetch at the control API.
 */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let allowedSite: Server;
let otherSite: Server;
let mock: MockServer;
let browser: Browser;
let member: Who;

/** A page server: an empty page at every path, as a web client's dev server would serve its app. */
async function site(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>'));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let allowed: string;
let other: string;

beforeAll(async () => {
  ({ server: allowedSite, origin: allowed } = await site());
  ({ server: otherSite, origin: other } = await site());
  mock = await startTestServer({ corsOrigins: [allowed] });
  member = credentials(mock).member!;
  browser = await chromium.launch({ executablePath: await chromiumPath(), args: FLAGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await mock?.close();
  for (const s of [allowedSite, otherSite]) await new Promise((done) => s?.close(done));
});

async function pageAt(origin: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  return page;
}

/** In the page: send a message with fetch (Basic auth, a form body, as the stock web clients do) and read it back. */
async function sendAndReadBack(page: Page, content: string): Promise<string> {
  return page.evaluate(
    async ({ api, authorization, content }) => {
      const sent = await fetch(`${api}/api/v1/messages`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ type: 'stream', to: 'home', topic: 'cors', content }),
      });
      const { id } = (await sent.json()) as { id: number };
      const read = await fetch(`${api}/api/v1/messages/${id}?apply_markdown=false`, { headers: { authorization } });
      return ((await read.json()) as { message: { content: string } }).message.content;
    },
    { api: mock.url, authorization: basic(member), content },
  );
}

/** The newest message of the realm, as the member sees it. */
async function newestContent(): Promise<string> {
  const url = `${mock.url}/api/v1/messages?anchor=newest&num_before=1&num_after=0&apply_markdown=false`;
  const answer = (await (await fetch(url, { headers: { authorization: basic(member) } })).json()) as { messages: { content: string }[] };
  return answer.messages[0]!.content;
}

describe('a page on an allowed origin', () => {
  it('sends a message with fetch (Basic auth) and reads it back', async () => {
    const page = await pageAt(allowed);
    try {
      expect(await sendAndReadBack(page, 'sent from the allowed web client')).toBe('sent from the allowed web client');
      expect(await newestContent()).toBe('sent from the allowed web client');
    } finally {
      await page.close();
    }
  }, 30_000);
});

describe('a page on another origin', () => {
  it('cannot: its fetch rejects, and nothing is sent', async () => {
    const page = await pageAt(other);
    try {
      await expect(sendAndReadBack(page, 'sent from another site')).rejects.toThrow(/Failed to fetch/);
      expect(await newestContent()).not.toBe('sent from another site');
    } finally {
      await page.close();
    }
  }, 30_000);

  it('changes nothing on the control API with a cross-site form, a text/plain form or a no-cors fetch', async () => {
    const page = await pageAt(other);
    const before = demoNow();
    try {
      for (const enctype of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data']) {
        await page.goto(`${other}/`);
        const landed = page.waitForURL(`${mock.url}/__mock/realms`);
        await page.evaluate(
          ({ action, enctype }) => {
            const form = document.createElement('form');
            form.method = 'POST';
            form.action = action;
            form.enctype = enctype;
            const field = document.createElement('input');
            // As text/plain this posts `{"realm_id":"from-a-form","x":"="}`: a JSON body in a form.
            field.name = enctype === 'text/plain' ? '{"realm_id":"from-a-form","x":"' : 'realm_id';
            field.value = enctype === 'text/plain' ? '"}' : 'from-a-form';
            form.append(field);
            document.body.append(form);
            form.submit();
          },
          { action: `${mock.url}/__mock/realms`, enctype },
        );
        await landed;
        expect(await page.textContent('body'), enctype).toContain('"code":"UNAUTHORIZED"');
      }
      await page.goto(`${other}/`);
      await page.evaluate(async (api) => {
        await fetch(`${api}/__mock/realms/demo/clock/advance`, { method: 'POST', mode: 'no-cors', body: '{"seconds":86400}' });
        await fetch(`${api}/__mock/realms`, { method: 'POST', mode: 'no-cors', body: new URLSearchParams({ realm_id: 'from-a-form' }) });
      }, mock.url);
      const read = await page.evaluate(async (api) => {
        try {
          return await (await fetch(`${api}/__mock/realms/demo/credentials`)).text();
        } catch (error) {
          return String(error);
        }
      }, mock.url);
      expect(read).toMatch(/Failed to fetch/);
    } finally {
      await page.close();
    }
    expect(mock.control.listRealms().map((r) => r.realm_id)).not.toContain('from-a-form');
    expect(demoNow()).toBe(before);
  }, 60_000);
});

/** The demo realm's time (UNIX seconds), which a control call that got through could move. */
const demoNow = () => {
  const clock = mock.control.clock('demo');
  if (!('now' in clock)) throw new Error('the demo realm has no clock');
  return clock.now;
};

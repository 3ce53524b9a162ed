import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Convert from 'ansi-to-html';
import escape from 'escape-html';
import { chromium } from 'playwright-core';
import { chromiumPath } from '../chromium.js';
import { request } from 'undici';

/**
 * Makes docs/proxy.png, the README's picture of `teamchat proxy`'s live output: the real command, with
 * colours (FORCE_COLOR), in front of a real mock (`teamchat serve`, a child process) behind a small relay
 * that plants three faults, driven by requests a client makes; its terminal output is turned into HTML by
 * ansi-to-html and photographed in Chromium. Run: `npx tsx tools/screenshots/proxy.ts [out.png]`.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'cli/teamchat.ts');
const OUT = process.argv[2] ?? join(ROOT, 'docs/proxy.png');
const ANSI = /\x1b\[[0-9;]*m/g; // eslint-disable-line no-control-regex

function start(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): { child: ChildProcess; output: () => string; waitFor(re: RegExp): Promise<RegExpExecArray> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiters: (() => void)[] = [];
  for (const stream of [child.stdout!, child.stderr!])
    stream.on('data', (chunk: Buffer) => {
      output += chunk;
      waiters.forEach((w) => w());
    });
  return {
    child,
    output: () => output,
    waitFor: (re) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const m = re.exec(output.replace(ANSI, ''));
          if (m) resolve(m);
        };
        waiters.push(check);
        child.once('exit', (code) => reject(new Error(`${args[0]} exited ${code}: ${output}`)));
        check();
      }),
  };
}

const exited = (child: ChildProcess) => new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));

/** A relay to the mock planting three faults: a dropped field, a wrong code, an unknown parameter not listed. */
async function faultyRelay(mock: string): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const { host: _host, connection: _c, ...headers } = req.headers;
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        const answer = await request(mock + (req.url ?? '/'), {
          method: req.method as 'GET',
          headers: headers as Record<string, string>,
          body,
        });
        const json = (await answer.body.json()) as Record<string, unknown>;
        const path = (req.url ?? '').split('?')[0];
        if (req.method === 'GET' && path === '/api/v1/drafts') delete json.drafts;
        if (json.code === 'NOT_FOUND') json.code = 'BAD_REQUEST';
        if (path === '/api/v1/users') delete json.ignored_parameters_unsupported;
        res.writeHead(answer.statusCode, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return server;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'teamchat-proxy-shot-'));
  const serve = start(['serve', '--in-memory', '--port', '0', '--zuliprc-dir', dir]);
  let proxy: ReturnType<typeof start> | undefined;
  const relay = await faultyRelay((await serve.waitFor(/listening on (http:\/\/\S+)[\s\S]*try: curl/))[1]!);
  try {
    const target = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
    const args = ['proxy', '--target', target, '--port', '0', '--verbose', '--report-dir', join(dir, 'reports')];
    proxy = start(args, { FORCE_COLOR: '1', NO_COLOR: '' });
    const url = (await proxy.waitFor(/teamchat proxy: (http:\/\/\S+) →/))[1]!;
    const rc = await readFile(join(dir, 'zuliprc-member'), 'utf8');
    const auth = `Basic ${Buffer.from(`${/email=(.*)/.exec(rc)![1]}:${/key=(.*)/.exec(rc)![1]}`).toString('base64')}`;
    const call = async (method: string, path: string, form?: Record<string, string>) => {
      const res = await request(url + path, {
        method: method as 'GET',
        headers: { authorization: auth, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
        ...(form ? { body: new URLSearchParams(form).toString() } : {}),
      });
      return (await res.body.json()) as Record<string, unknown>;
    };
    await call('GET', '/api/v1/server_settings');
    await call('POST', '/api/v1/register', { event_types: '["message"]' });
    const subs = (await call('GET', '/api/v1/users/me/subscriptions')).subscriptions as { stream_id: number }[];
    await call('POST', '/api/v1/messages', { type: 'stream', to: String(subs[0]!.stream_id), topic: 'release', content: 'Ship it' });
    await call('GET', '/api/v1/messages?anchor=newest&num_before=5&num_after=0');
    await call('GET', '/api/v1/drafts');
    await call('PATCH', '/api/v1/navigation_views/narrow/is/nowhere', { is_pinned: 'true' });
    await call('GET', '/api/v1/users?include_custom_profile_fieldz=true');
    await call('POST', '/api/v1/messages/render', { content: '**bold**' });
    proxy.child.kill('SIGINT');
    await exited(proxy.child);
    const command = `$ teamchat proxy --target ${target} --verbose --report-dir /tmp/run/reports`;
    await shoot(
      `${escape(command)}\n${new Convert({ fg: '#d4d4d4', bg: '#1e1e1e', escapeXML: true }).toHtml(proxy.output().replaceAll(dir, '/tmp/run'))}`,
    );
    console.log(`wrote ${OUT}`);
  } finally {
    proxy?.child.kill('SIGTERM');
    serve.child.kill('SIGTERM');
    relay.close();
    await exited(serve.child);
    await rm(dir, { recursive: true, force: true });
  }
}

async function shoot(terminal: string): Promise<void> {
  const browser = await chromium.launch({ executablePath: await chromiumPath(), args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1180, height: 400 }, deviceScaleFactor: 1 });
    await page.setContent(
      `<!doctype html><html><body style="margin:0;background:#fff"><pre id="term" style="margin:0;padding:16px 18px;background:#1e1e1e;color:#d4d4d4;` +
        `font:13px/1.45 'DejaVu Sans Mono',monospace;white-space:pre-wrap;width:1140px;border-radius:6px">${terminal}</pre></body></html>`,
    );
    await mkdir(join(OUT, '..'), { recursive: true });
    await page.locator('#term').screenshot({ path: OUT });
  } finally {
    await browser.close();
  }
}

await main();

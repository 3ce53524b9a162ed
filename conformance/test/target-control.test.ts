import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Target, TargetError } from '../src/target.js';

/**
 * How the suite speaks to a control API (never the mock itself: a node:http stand-in): every call carries
 * `X-Teamchat-Control` (the mock takes a bodiless call that changes something only with it), and a control API
 * that refuses the target's host name is named as such, with the option that lets it through.
 */
const seen: IncomingMessage['headers'][] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    const refusal = {
      result: 'error',
      code: 'UNAUTHORIZED',
      msg: 'The control API and the inspector answer only a Host that is an IP address, localhost, the server’s --host or a name given with --allow-host',
    };
    res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify(refusal));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((done) => server.close(done)));

describe('Target.connect to a control API that refuses the host name', () => {
  it('sends the control header, and says to start the mock with --allow-host', async () => {
    const connecting = Target.connect(base);
    await expect(connecting).rejects.toBeInstanceOf(TargetError);
    await expect(connecting).rejects.toThrow(/refuses the host name of .*--allow-host 127\.0\.0\.1/);
    expect(seen[0]!['x-teamchat-control']).toBe('1');
  });
});

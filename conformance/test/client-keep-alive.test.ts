import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../src/client.js';

/**
 * ApiClient.quiet keeps its connection after a DELETE with form fields: explore deletes a queue after every
 * fresh register, and a new connection per DELETE cost both sides a connect and a close.
 */
let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe('ApiClient.quiet', () => {
  it('sends DELETEs with a body on kept connections, not a new one each', async () => {
    let connections = 0;
    const bodies: string[] = [];
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        bodies.push(`${req.method} ${body}`);
        res.setHeader('content-type', 'application/json');
        res.end('{"result":"success","msg":""}');
      });
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = new ApiClient(`http://127.0.0.1:${port}`, () => 0);
    const who = { role: 'member', email: 'member@example.test', api_key: 'key' };
    const ids = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7', 'q8'];
    for (const id of ids) {
      const answer = await client.quiet('DELETE', '/api/v1/events', { queue_id: id }, who);
      expect(answer.body.result).toBe('success');
    }
    expect(bodies).toEqual(ids.map((id) => `DELETE queue_id=${id}`));
    // undici may open a second connection while it finishes with the first answer; never one per request.
    expect(connections).toBeLessThanOrEqual(2);
  });
});

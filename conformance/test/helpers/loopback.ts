import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** A node:http server on a free loopback port; its URL without a trailing slash. */
export async function listenLoopback(handler: RequestListener): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export const closeServer = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

/** One loopback server for a test file: started before its tests, closed after them. */
export function useLoopbackServer(handler: RequestListener): { readonly url: string } {
  let started: { server: Server; url: string } | null = null;
  beforeAll(async () => {
    started = await listenLoopback(handler);
  });
  afterAll(() => (started ? closeServer(started.server) : undefined));
  return {
    get url() {
      if (!started) throw new Error('the loopback server is not started yet (read url inside a test)');
      return started.url;
    },
  };
}

/**
 * The smallest server the suite can run against (never the mock): no control API, a register announcing level
 * 333, `GET /api/v1/fake/ok` answering 42, NOT_FOUND for the rest. `seen` receives every request line.
 */
export function fakeApi(seen?: (line: string) => void): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    seen?.(`${req.method} ${req.url}`);
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    req.resume();
    req.on('end', () => {
      const path = req.url!.split('?')[0];
      if (req.method === 'POST' && path === '/api/v1/register')
        return json(200, { result: 'success', msg: '', queue_id: 'q-1', last_event_id: -1, service_feature_level: 333 });
      if (req.method === 'DELETE' && path === '/api/v1/events') return json(200, { result: 'success', msg: '' });
      if (path === '/api/v1/fake/ok') return json(200, { result: 'success', msg: '', value: 42 });
      return json(404, { result: 'error', msg: 'Not found', code: 'NOT_FOUND' });
    });
  };
}

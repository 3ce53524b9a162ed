import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A test server standing for the proxy's target on loopback: its base URL, and a close that cuts open connections.
 * It takes request headers up to the mock's limit (64 KiB), as the proxy does.
 */
export interface TestTarget {
  url: string;
  close(): Promise<void>;
}

export async function startTarget(handler: RequestListener): Promise<TestTarget> {
  const server = createServer({ maxHeaderSize: 64 * 1024 }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

import { createServer, type ServerResponse } from 'node:http';

/**
 * The fan-out floor: a bare `node:http` server that holds every `GET` as a waiting long-poll and, on any
 * `POST`, answers all of them at once with the same bytes (BARE_BODY: a message event as the mock sent it),
 * then answers the POST with how many it answered. No routing, no queues, no per-recipient work: what the
 * mock spends above this is the cost of its own fan-out. `GET /waiting` answers the count held (readiness).
 */
const bytes = Buffer.from(process.env.BARE_BODY ?? '{}');
const headers = { 'Content-Type': 'application/json', 'Content-Length': bytes.length };
const waiting = new Set<ServerResponse>();

const server = createServer((req, res) => {
  req.resume();
  req.once('end', () => {
    if (req.method === 'GET' && req.url === '/waiting') {
      res.end(String(waiting.size));
    } else if (req.method === 'GET') {
      waiting.add(res);
      // A client that goes away leaves the set, so nothing is written to a closed socket.
      res.once('close', () => waiting.delete(res));
    } else {
      const held = [...waiting];
      waiting.clear();
      for (const poll of held) {
        poll.writeHead(200, headers);
        poll.end(bytes);
      }
      res.end(String(held.length));
    }
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening on http://127.0.0.1:${address.port}`);
});

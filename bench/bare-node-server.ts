import { createServer } from 'node:http';

/**
 * The floor: a bare `node:http` server answering every request with bytes captured from the mock (no
 * framework, no routing), so mock / bare shows what everything above Node's HTTP parser costs.
 */
const bytes = Buffer.from(process.env.BARE_BODY ?? '{}');
const server = createServer((req, res) => {
  // Drain the body of POSTs, as any server must before the connection can be reused.
  req.resume();
  req.once('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': bytes.length });
    res.end(bytes);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening on http://127.0.0.1:${address.port}`);
});

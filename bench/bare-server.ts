import express from 'express';

/**
 * The baseline: a tuned express 5 app (no ETag, no x-powered-by) that answers every request with
 * bytes captured from the mock server, so the ratio measures the mock's own work per request.
 */
const bytes = Buffer.from(process.env.BARE_BODY ?? '{}');
const app = express();
app.set('etag', false);
app.set('x-powered-by', false);
app.all('/{*path}', (_req, res) => {
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening on http://127.0.0.1:${address.port}`);
});

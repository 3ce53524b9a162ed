import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer } from 'node:http';

/**
 * The durable-write floor: a bare `node:http` server that appends each POST's body as a line to a journal opened
 * `O_DSYNC` (as the mock's is), in group commits (one write for all bodies that arrived during the previous one), and
 * answers each once its line is durable. No parsing, no state, no validation: what the mock spends above this on
 * the same 50 connections is the cost of being a server with data. JOURNAL_PATH: the file (created empty).
 */
const file = await open(
  process.env.JOURNAL_PATH!,
  constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_TRUNC | constants.O_DSYNC,
);
const answer = Buffer.from('{"result":"success","msg":"","ids":[1]}');
const headers = { 'Content-Type': 'application/json', 'Content-Length': answer.length };

let queued: { line: string; done: () => void }[] = [];
let flushing = false;

async function flush(): Promise<void> {
  flushing = true;
  while (queued.length > 0) {
    const batch = queued;
    queued = [];
    await file.write(batch.map((q) => q.line).join(''));
    for (const q of batch) q.done();
  }
  flushing = false;
}

const server = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.once('end', () => {
    queued.push({
      line: `${JSON.stringify(body)}\n`,
      done: () => {
        res.writeHead(200, headers);
        res.end(answer);
      },
    });
    if (!flushing) void flush();
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening on http://127.0.0.1:${address.port}`);
});

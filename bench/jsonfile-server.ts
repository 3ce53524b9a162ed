import { readFileSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { createServer } from 'node:http';

/**
 * The write baseline: what a json-server-style mock does per POST. The whole database lives in one
 * JSON file; each POST /api/v1/drafts adds rows in memory, then the whole file is rewritten (temporary
 * file, fsync, rename: lowdb's atomic write plus the fsync that makes it durable) before the answer.
 * Writes asked for while one is under way share the next one (as lowdb's writer coalesces them), which
 * is the most a whole-file design can do. JSONDB_PATH: the file, already holding the data to start from.
 */
const path = process.env.JSONDB_PATH!;
const db = JSON.parse(readFileSync(path, 'utf8')) as { drafts?: unknown[] };
db.drafts ??= [];
let nextId = 1;

async function writeAll(): Promise<void> {
  const tmp = `${path}.tmp`;
  const file = await open(tmp, 'w');
  try {
    await file.writeFile(JSON.stringify(db));
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(tmp, path);
}

let writing: Promise<void> | null = null;
let queued: { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } | null = null;

function persist(): Promise<void> {
  if (!writing) {
    writing = writeAll().finally(() => {
      writing = null;
      const waiting = queued;
      queued = null;
      if (waiting) persist().then(waiting.resolve, waiting.reject);
    });
    return writing;
  }
  if (!queued) {
    let resolve!: () => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
    queued = { promise, resolve, reject };
  }
  return queued.promise;
}

const server = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.once('end', () => {
    const send = (status: number, value: unknown) => {
      const bytes = Buffer.from(JSON.stringify(value));
      res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': bytes.length });
      res.end(bytes);
    };
    if (req.method !== 'POST') return send(404, { result: 'error', msg: 'not found' });
    let drafts: unknown[];
    try {
      drafts = JSON.parse(new URLSearchParams(body).get('drafts') ?? '[]') as unknown[];
    } catch {
      return send(400, { result: 'error', msg: 'drafts is not JSON' });
    }
    const ids = drafts.map((d) => {
      const id = nextId++;
      db.drafts!.push({ ...(d as object), id });
      return id;
    });
    persist().then(
      () => send(200, { result: 'success', msg: '', ids }),
      (error: Error) => send(500, { result: 'error', msg: error.message }),
    );
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening on http://127.0.0.1:${address.port}`);
});

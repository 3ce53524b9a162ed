import type { MockServer } from '../../src/app.js';

/**
 * The inspector's feed read as a test client: GET /__inspector/feed with fetch, its server-sent events parsed
 * from the stream (frames are `event: <name>` and one `data:` line of JSON: inspector/feed.ts).
 */
export interface Feed {
  /** Exchanges seen so far (the hello's backlog included). */
  seen: Summary[];
  /** The next event of this name (after those already read) that satisfies `test`. */
  next(event: string, test?: (data: Summary) => boolean, timeoutMs?: number): Promise<Summary>;
  close(): void;
  /** Resolves true when the server ends the stream. */
  ended: Promise<boolean>;
}

export type Summary = Record<string, unknown> & { id: number; path: string; method: string };

export async function openFeed(server: MockServer, headers: Record<string, string> = {}): Promise<Feed> {
  const abort = new AbortController();
  const res = await fetch(`${server.url}/__inspector/feed`, { headers, signal: abort.signal });
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new Error(`feed answered ${res.status}`);
  }
  const events: { event: string; data: Summary }[] = [];
  const wake: { waiting: (() => void) | null } = { waiting: null };
  const seen: Summary[] = [];
  let read = 0;
  const ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(frame)?.[1] ?? 'message';
          const data = JSON.parse(/^data: (.*)$/m.exec(frame)?.[1] ?? 'null') as Summary;
          if (event === 'hello') seen.push(...(data.exchanges as unknown as Summary[]));
          // A batch of exchanges is read as one `exchange` event each.
          if (event === 'exchanges') {
            seen.push(...(data as unknown as Summary[]));
            events.push(...(data as unknown as Summary[]).map((x) => ({ event: 'exchange', data: x })));
          } else events.push({ event, data });
          wake.waiting?.();
        }
      }
      return true;
    } catch {
      return false; // aborted by the test
    }
  })();
  return {
    seen,
    ended,
    close: () => abort.abort(),
    async next(event, test = () => true, timeoutMs = 5_000) {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        while (read < events.length) {
          const candidate = events[read++]!;
          if (candidate.event === event && test(candidate.data)) return candidate.data;
        }
        const left = deadline - performance.now();
        if (left <= 0) throw new Error(`no '${event}' event on the feed within ${timeoutMs} ms`);
        await new Promise<void>((done) => {
          const timer = setTimeout(done, left);
          wake.waiting = () => {
            clearTimeout(timer);
            wake.waiting = null;
            done();
          };
        });
      }
    },
  };
}

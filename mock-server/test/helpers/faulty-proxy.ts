import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

/**
 * A proxy in front of the mock that changes its answers: the fault-injection harness of the conformance
 * tests. A fault sees every exchange under /api/v1 (the control API passes through untouched) as the
 * upstream answered it, one at a time and in the order the answers arrived, and returns the answer the
 * client gets. A fault may keep state between exchanges: the sequence faults follow what passed (`Seen`)
 * and change later answers by it (drop or add events of a queue, rewrite a register answer or a read).
 * The mock's realms each number their users, channels and messages alike, so the proxy tells a fault which
 * realm an exchange is in (learnt from the realms the control API made through it).
 */
export type Answer = { status: number; body: Record<string, unknown> };
/**
 * What the proxy saw of a request: method, path, its parameters (form body or query string), the caller's e-mail
 * and realm (the ID the control API gave it; '' for the mock's own realm or a caller it does not know).
 */
export type Sent = { method: string; path: string; params: URLSearchParams; email: string; realm: string };
export type Fault = (req: IncomingMessage, answer: Answer, sent: Sent) => Answer;

export interface FaultyProxy {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** The parameters of a form-encoded body or of the query string, the Basic-auth user name and the realm of its key. */
function sentOf(req: IncomingMessage, body: Buffer | undefined, realms: ReadonlyMap<string, string>): Sent {
  const form = String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
  const params = new URLSearchParams(form && body ? body.toString() : ((req.url ?? '').split('?')[1] ?? ''));
  const auth = String(req.headers.authorization ?? '');
  const [email = '', key = ''] = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString().split(':') : [];
  return { method: req.method ?? 'GET', path: (req.url ?? '').split('?')[0]!, params, email, realm: realms.get(key) ?? '' };
}

/**
 * Learns each API key's realm from a realm the control API made (its world lists every user's credentials).
 * The mock gives a deleted realm's ID to the next one: the proxy's own count of realms made tells them apart.
 */
function learnRealm(text: string, realms: Map<string, string>, made: number): void {
  try {
    const body = JSON.parse(text) as { realm_id?: unknown; world?: { credentials?: Record<string, { api_key?: unknown }> } };
    if (typeof body.realm_id !== 'string') return;
    const realm = `${body.realm_id} #${made}`;
    for (const c of Object.values(body.world?.credentials ?? {})) if (typeof c.api_key === 'string') realms.set(c.api_key, realm);
  } catch {
    // Not a realm: nothing to learn.
  }
}

/** A proxy in front of `upstream` applying `fault` to the JSON answers under /api/v1. */
export async function faultyProxy(upstream: string, fault: Fault): Promise<FaultyProxy> {
  /** API key → realm ID, for the realms made through this proxy. */
  const realms = new Map<string, string>();
  let made = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<
          string,
          string
        >;
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        const up = await request(upstream + req.url, { method: req.method as 'GET', headers, body });
        const text = await up.body.text();
        let status = up.statusCode;
        let out = text;
        if (req.method === 'POST' && req.url === '/__mock/realms' && status < 300) learnRealm(text, realms, ++made);
        if (req.url?.startsWith('/api/v1/')) {
          let parsed: Record<string, unknown> | undefined;
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            // Not JSON: passed through as it is.
          }
          if (parsed) {
            const answer = fault(req, { status, body: parsed }, sentOf(req, body, realms));
            status = answer.status;
            out = JSON.stringify(answer.body);
          }
        }
        res.writeHead(status, { 'content-type': String(up.headers['content-type'] ?? 'application/json') });
        res.end(out);
      })().catch(() => {
        // The upstream went away (the test is closing): the client sees the connection drop.
        res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type Event = Record<string, unknown> & { type: string };

/** The events of a GET /events answer (none for any other exchange). */
export function eventsOf(sent: Sent, answer: Answer): Event[] {
  if (sent.method !== 'GET' || sent.path !== '/api/v1/events' || !Array.isArray(answer.body.events)) return [];
  return answer.body.events as Event[];
}

/** The answer with other events. */
export function withEvents(answer: Answer, events: readonly Event[]): Answer {
  return { ...answer, body: { ...answer.body, events } };
}

/** A successful POST /register answer (null for any other exchange). */
export function registerAnswer(sent: Sent, answer: Answer): Record<string, unknown> | null {
  return sent.method === 'POST' && sent.path === '/api/v1/register' && answer.body.result === 'success' ? answer.body : null;
}

/** A JSON-encoded parameter (a list of message IDs, of channel names), or undefined. */
export function jsonParam(sent: Sent, name: string): unknown {
  const raw = sent.params.get(name);
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

const numbers = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : []);
const topicOf = (o: Record<string, unknown>): string | undefined =>
  typeof o.subject === 'string' ? o.subject : typeof o.topic === 'string' ? o.topic : undefined;

/**
 * What a sequence fault knows of what passed through the proxy, learnt from the events every queue
 * received: where each channel message is now (moves included), each user's ID by e-mail, the messages
 * each user's queue delivered and the channels each user left. A fault asks it before changing an answer.
 */
export class Seen {
  /** A channel message's channel and topic, by message ID. */
  readonly where = new Map<number, { streamId: number; topic: string }>();
  /** Users' IDs by e-mail (message senders, direct-message recipients). */
  readonly userIds = new Map<string, number>();
  /** The message IDs each user's queue delivered, by the user's e-mail. */
  readonly received = new Map<string, Set<number>>();
  /** The channels each user's queue said it left (and has not rejoined since), by the user's e-mail. */
  readonly left = new Map<string, Set<number>>();

  /** Learns from one exchange, as the upstream answered it (before the fault changes it). */
  observe(sent: Sent, answer: Answer): void {
    for (const e of eventsOf(sent, answer)) this.#learn(sent.email, e);
  }

  #learn(email: string, e: Event): void {
    if (e.type === 'message') {
      const m = (e.message ?? {}) as Record<string, unknown>;
      if (typeof m.id !== 'number') return;
      this.#set(this.received, email).add(m.id);
      if (typeof m.sender_email === 'string' && typeof m.sender_id === 'number') this.userIds.set(m.sender_email, m.sender_id);
      for (const r of Array.isArray(m.display_recipient) ? (m.display_recipient as Record<string, unknown>[]) : [])
        if (typeof r.email === 'string' && typeof r.id === 'number') this.userIds.set(r.email, r.id);
      const topic = topicOf(m);
      if (typeof m.stream_id === 'number' && topic !== undefined) this.where.set(m.id, { streamId: m.stream_id, topic });
    } else if (e.type === 'update_message') {
      const topic = topicOf(e);
      const streamId = typeof e.new_stream_id === 'number' ? e.new_stream_id : undefined;
      if (topic === undefined && streamId === undefined) return;
      for (const id of numbers(e.message_ids)) {
        const now = this.where.get(id);
        if (now) this.where.set(id, { streamId: streamId ?? now.streamId, topic: topic ?? now.topic });
      }
    } else if (e.type === 'subscription' && (e.op === 'remove' || e.op === 'add')) {
      const ids = (Array.isArray(e.subscriptions) ? (e.subscriptions as Record<string, unknown>[]) : [])
        .map((s) => s.stream_id)
        .filter((id): id is number => typeof id === 'number');
      const left = this.#set(this.left, email);
      for (const id of ids)
        if (e.op === 'remove') left.add(id);
        else left.delete(id);
    }
  }

  #set<T>(map: Map<string, Set<T>>, key: string): Set<T> {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    return set;
  }
}

/**
 * A fault that follows what passes: `seen` learns from every upstream answer first, then the fault decides
 * with what it knows. As a server keeps its state per realm, so does a fault: the factory runs once per realm
 * an exchange is in, so that a realm made later, whose IDs repeat an earlier one's, starts unharmed.
 */
export function sequenceFault(make: (seen: Seen) => (answer: Answer, sent: Sent) => Answer): Fault {
  const byRealm = new Map<string, { seen: Seen; fault: (answer: Answer, sent: Sent) => Answer }>();
  return (_req, answer, sent) => {
    let realm = byRealm.get(sent.realm);
    if (!realm) {
      const seen = new Seen();
      byRealm.set(sent.realm, (realm = { seen, fault: make(seen) }));
    }
    realm.seen.observe(sent, answer);
    return realm.fault(answer, sent);
  };
}

import type { MockServer } from '../../../src/app.js';
import type * as Helpers from '../../helpers/test-server.js';
import { goldenRequests, PER_QUEUE_KEYS } from './requests.js';

export interface GoldenAnswer {
  name: string;
  status: number;
  /** The body as sent, with per-queue values blanked. */
  text: string;
}

/** Every golden request's answer from `server`, through the given helpers (which may be another commit's). */
export async function goldenAnswers(server: MockServer, helpers: Pick<typeof Helpers, 'call' | 'credentials'>): Promise<GoldenAnswer[]> {
  const who = helpers.credentials(server);
  const channelIds = Object.values(server.control.world('demo').channels as Record<string, { stream_id: number }>).map((c) => c.stream_id);
  const out: GoldenAnswer[] = [];
  const userIds = [...new Set(Object.values(who).map((w) => w.user_id))];
  for (const r of goldenRequests(channelIds, userIds)) {
    const res = await helpers.call(server, r.method, r.path, { as: who[r.as]!, ...(r.form ? { form: r.form } : {}) });
    let text = res.text;
    for (const key of PER_QUEUE_KEYS) text = text.replace(new RegExp(`"${key}":"[^"]*"`), `"${key}":"…"`);
    out.push({ name: r.name, status: res.status, text });
  }
  return out;
}

import { pathKey as keyInPath, type Knowledge, type KnownMessage } from '../knowledge.js';
import type { Step } from '../types.js';
import { maySeeMessage } from '../visibility.js';
import type { VerifyContext } from './template.js';

/**
 * Read-your-writes for messages: after a write, every actor reads the messages it touched with
 * GET /messages/{id} (spec §4.3). One allowed to see a message reads what the write said (content as
 * sent, topic, channel); one who may not gets the documented error (BAD_REQUEST, "does not exist or is
 * not visible"), and a deleted message is gone for everyone.
 */

/** The key of the entity a step's path names (`/api/v1/messages/{m3}` → `m3`). */
export function pathKey(step: Step): string {
  return keyInPath(step.path) ?? '';
}

/** The message a step's path names, when the sequence knows it. */
export function pathMessage(k: Knowledge, step: Step): KnownMessage | undefined {
  return k.message(pathKey(step));
}

/** At most this many messages are read back per step (a topic move may touch many). */
const MOST_READ = 3;

export async function verifyMessageReads(v: VerifyContext, messages: readonly KnownMessage[]): Promise<void> {
  const { k, actors, fail } = v;
  const list = messages.slice(0, MOST_READ);
  await Promise.all(
    actors.flatMap((actor) =>
      list.map(async (m) => {
        const sight = m.deleted ? false : maySeeMessage(actor, m, k);
        if (sight === 'unknown') return;
        const read = await actor.call('GET', `/api/v1/messages/${m.id}`, { apply_markdown: false });
        const msg = read.body.message as Record<string, unknown> | undefined;
        if (!sight) {
          if (read.status !== 400 || read.body.code !== 'BAD_REQUEST')
            fail(
              `${actor.name} may not see message ${m.key}${m.deleted ? ' (deleted)' : ''}, yet reading it answered ${read.status}`,
              actor.name,
              read.body,
            );
          return;
        }
        if (read.status !== 200 || !msg) return fail(`${actor.name} cannot read message ${m.key} (${read.status})`, actor.name, read.body);
        const channel = m.channel === null ? undefined : k.channel(m.channel);
        const got = { content: msg.content, topic: msg.subject, stream_id: msg.stream_id };
        const want = { content: m.content || got.content, topic: m.topic, stream_id: channel?.id };
        if (got.content !== want.content || got.topic !== want.topic || got.stream_id !== want.stream_id)
          fail(
            `${actor.name} reads message ${m.key} as ${JSON.stringify(got)}, the writes made it ${JSON.stringify(want)}`,
            actor.name,
            msg,
          );
      }),
    ),
  );
}

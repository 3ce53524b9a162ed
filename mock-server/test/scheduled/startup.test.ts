import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../../src/app.js';
import { LATE_AFTER_SECONDS } from '../../src/delivery/scheduler.js';
import { credentials } from '../helpers/test-server.js';
import { tables, nowOf } from '../helpers/harness.js';
import { advance, channelForm, listScheduled, remind, schedule } from './support.js';

/**
 * Start-up (reference §4.1 "Delivery"): a server restarted on its state file catches up on what fell due
 * while it was down. Items more than ten minutes overdue fail with `Message could not be sent at the
 * scheduled time.`; those less late are sent at their time; the rest wait for their time as before.
 * Both servers run on a frozen clock, the second one started 20 minutes of server time later.
 */
const START = 1_900_000_000;
let dir = '';
const open: MockServer[] = [];
const serve = async (clockStart: number) => {
  const server = await createMockServer({ port: 0, statePath: join(dir, 'state.json'), clock: 'frozen', clockStart, durability: 'write' });
  open.push(server);
  return server;
};
afterAll(async () => {
  for (const server of open) await server.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('delivery at start-up', () => {
  it('fails what is more than ten minutes overdue, sends what is less, keeps the rest', async () => {
    dir = await mkdtemp(join(tmpdir(), 'teamchat-startup-'));
    const first = await serve(START);
    const who = credentials(first);
    const t0 = nowOf(first, 'demo');
    const at = (seconds: number) => ({ scheduled_delivery_timestamp: String(t0 + seconds) });
    const late = (await schedule(first, who.member!, channelForm(first, 'demo', { content: 'Missed', ...at(60) }))).body
      .scheduled_message_id as number;
    const edge = (
      await schedule(
        first,
        who.member!,
        channelForm(first, 'demo', { content: 'Exactly ten minutes late', ...at(20 * 60 - LATE_AFTER_SECONDS) }),
      )
    ).body.scheduled_message_id as number;
    const slightly = (await schedule(first, who.member!, channelForm(first, 'demo', { content: 'Slightly late', ...at(15 * 60) }))).body
      .scheduled_message_id as number;
    const waiting = (await schedule(first, who.member!, channelForm(first, 'demo', { content: 'Later', ...at(30 * 60) }))).body
      .scheduled_message_id as number;
    const reminder = (await remind(first, who.member!, { message_id: '1090', note: 'call back', ...at(120) })).body.reminder_id as number;
    await first.close();

    const second = await serve(START + 20 * 60);
    expect(nowOf(second, 'demo')).toBe(t0 + 20 * 60);
    const rows = tables(second, 'demo');
    expect(rows.scheduled_messages[String(late)]).toMatchObject({ failed: true, delivered_message_id: null });
    expect(rows.reminders[String(reminder)]).toMatchObject({ failed: true, delivered_message_id: null });
    const sent = [edge, slightly].map((id) => rows.messages[String(rows.scheduled_messages[String(id)]!.delivered_message_id)]);
    expect(sent.map((m) => [m?.content, m?.timestamp])).toEqual([
      ['Exactly ten minutes late', t0 + 20 * 60 - LATE_AFTER_SECONDS],
      ['Slightly late', t0 + 15 * 60],
    ]);
    expect(rows.scheduled_messages[String(waiting)]).toMatchObject({ failed: false, delivered_message_id: null });

    const notices = Object.values(rows.messages).filter((m) => m.sender_id === 22 && m.timestamp === t0 + 20 * 60);
    expect(notices.map((m) => m.content).sort()).toEqual([
      "I couldn't deliver a reminder you asked for. Reason: Message could not be sent at the scheduled time.\n\n> call back",
      "I couldn't send the following message to #**home>plans** at the scheduled time. Reason: Message could not be sent at the scheduled time.\n\n> Missed",
    ]);
    const listed = await listScheduled(second, credentials(second).member!);
    expect(
      listed.filter((s) => [late, waiting].includes(s.scheduled_message_id as number)).map((s) => [s.scheduled_message_id, s.failed]),
    ).toEqual([
      [late, true],
      [waiting, false],
    ]);

    // After start-up lateness no longer matters: the clock moved by the control API delivers as usual.
    await advance(second, 'demo', 3 * 3600);
    expect(tables(second, 'demo').scheduled_messages[String(waiting)]!.delivered_message_id).not.toBeNull();
  });
});

import type { MockServer } from '../../src/app.js';
import { call, type CallOptions, type Reply } from '../helpers/test-server.js';
import { accounts, subscribed, tablesOf, type Account } from './model.js';

/**
 * Insiders busy on a private channel: every implemented state change that emits events about it.
 * Everyone involved keeps metadata access throughout (the actor and the principal are organization
 * administrators, the second poster a subscriber), so the outsiders stay outsiders.
 */

export interface Cast {
  /** An organization administrator subscribed to the channel: may change anything (§4.16, C18). */
  actor: Account;
  /** Another subscriber, who posts, marks read and changes personal settings. */
  poster: Account;
  /** An organization administrator other than the actor (the poster when no other is left), whose
   *  subscription the actor removes and restores, or adds and removes. */
  principal: Account;
}

export function castFor(server: MockServer, realmId: string, streamId: number): Cast {
  const tables = tablesOf(server, realmId);
  const all = accounts(server, realmId);
  const actor = all.find((a) => a.role <= 200 && subscribed(tables, a.user_id, streamId))!;
  const poster = all.find((a) => a !== actor && !a.is_bot && subscribed(tables, a.user_id, streamId))!;
  const admins = all.filter((a) => a.role <= 200 && a !== actor);
  const principal = admins.find((a) => a !== poster) ?? admins[0]!;
  return { actor, poster, principal };
}

export interface Step {
  label: string;
  reply: Reply;
}

/** Runs the activity; every step's answer is returned so the test can insist that each one succeeded. */
export async function beBusy(server: MockServer, realmId: string, streamId: number, cast: Cast, outsiders: Account[]): Promise<Step[]> {
  const { actor, poster, principal } = cast;
  // Read before anything changes: the world's channel kinds follow the channels' settings.
  const home = server.control.world(realmId).channels.public!.stream_id;
  const steps: Step[] = [];
  const run = async (label: string, who: Account, method: string, path: string, options: CallOptions) =>
    steps.push({ label, reply: await call(server, method, path, { as: who, ...options }) });
  const patch = (label: string, form: Record<string, string>) => run(label, actor, 'PATCH', `/api/v1/streams/${streamId}`, { form });
  const topic = `leak topic ${streamId} heron`;
  // Mentions of outsiders and a wildcard: a mention must not deliver a private message to a non-subscriber.
  const mentions = outsiders.map((o) => `@**${o.full_name}**`).join(' ');
  const send = (who: Account, content: string) =>
    run(`send as ${who.email}`, who, 'POST', '/api/v1/messages', { form: { type: 'stream', to: String(streamId), topic, content } });

  await send(actor, `Leak probe ${streamId} kestrel ${mentions} @**all**`);
  await send(poster, `Second leak probe ${streamId} osprey`);
  await patch('rename', { new_name: `renamed ${streamId} falcon` });
  await patch('description', { description: `secret description ${streamId} wren` });
  const named = JSON.stringify({ new: { direct_members: outsiders.map((o) => o.user_id), direct_subgroups: [3] } });
  await patch('group settings naming the outsiders', { can_remove_subscribers_group: named, can_resolve_topics_group: named });
  await patch('topics_policy', { topics_policy: 'disable_empty_topic' });
  await patch('retention', { message_retention_days: '90' });
  const history = tablesOf(server, realmId).channels[String(streamId)]!.history_public_to_subscribers;
  await patch('history privacy', { history_public_to_subscribers: String(!history) });

  const membership = {
    form: { subscriptions: JSON.stringify([`renamed ${streamId} falcon`]), principals: JSON.stringify([principal.user_id]) },
  };
  const join = {
    form: { subscriptions: JSON.stringify([{ name: `renamed ${streamId} falcon` }]), principals: JSON.stringify([principal.user_id]) },
  };
  if (subscribed(tablesOf(server, realmId), principal.user_id, streamId)) {
    await run('unsubscribe principal', actor, 'DELETE', '/api/v1/users/me/subscriptions', membership);
    await run('resubscribe principal', actor, 'POST', '/api/v1/users/me/subscriptions', join);
  } else {
    await run('subscribe principal', actor, 'POST', '/api/v1/users/me/subscriptions', join);
    await run('unsubscribe principal', actor, 'DELETE', '/api/v1/users/me/subscriptions', membership);
  }

  await run('mark topic read', poster, 'POST', '/api/v1/mark_topic_as_read', { form: { stream_id: String(streamId), topic_name: topic } });
  const personal = [
    { stream_id: streamId, property: 'color', value: '#123456' },
    { stream_id: streamId, property: 'pin_to_top', value: true },
    { stream_id: streamId, property: 'is_muted', value: true },
  ];
  await run('subscription properties', poster, 'POST', '/api/v1/users/me/subscriptions/properties', {
    form: { subscription_data: JSON.stringify(personal) },
  });
  await run('archive', actor, 'DELETE', `/api/v1/streams/${streamId}`, {});
  await patch('unarchive', { is_archived: 'true' });
  await send(actor, `Third leak probe ${streamId} plover after unarchiving`);
  // Public chatter, which everyone watching public channels gets: proof that the outsiders' queues work.
  await run('public message', actor, 'POST', '/api/v1/messages', {
    form: { type: 'stream', to: String(home), topic: 'lobby', content: 'Public chatter' },
  });
  return steps;
}

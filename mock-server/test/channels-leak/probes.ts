import type { MockServer } from '../../src/app.js';
import type { RealmState } from '../../src/store/state.js';
import type { CallOptions } from '../helpers/test-server.js';
import { hasMetadataAccess, ownerSubscribedIds, type Account } from './model.js';

/** The private channels of the demo world (world-file kinds), and inputs that name nothing. */
export const PRIVATE = ['private_protected', 'private_shared', 'moderation'] as const;
export type PrivateKind = (typeof PRIVATE)[number];
export const NO_SUCH_ID = 9999;
export const NO_SUCH_NAME = 'no such channel anywhere';

export function channelOf(server: MockServer, realmId: string, kind: PrivateKind): { stream_id: number; name: string } {
  const channel = server.control.world(realmId).channels[kind];
  if (!channel) throw new Error(`world of ${realmId} has no ${kind} channel`);
  return { stream_id: channel.stream_id, name: channel.name };
}

export interface Probe {
  label: string;
  method: string;
  /** Sending, which a bot may do to its owner's channels (see ownerMaySend). */
  send?: boolean;
}

export interface IdProbe extends Probe {
  path: (id: number) => string;
  options: (id: number) => CallOptions;
}

export interface NameProbe extends Probe {
  path: string;
  options: (name: string) => CallOptions;
}

/**
 * Every implemented operation that takes a channel ID (reference "Channel by ID": `Invalid channel ID`
 * for missing and inaccessible alike; send-message: STREAM_DOES_NOT_EXIST with the ID sent). The topic
 * named is one of the channel's own, so the probe cannot fail early on an unknown topic.
 */
export function byIdProbes(tables: RealmState, streamId: number): IdProbe[] {
  const topic = Object.values(tables.messages).find((m) => m.stream_id === streamId)?.subject ?? 'general';
  return [
    { label: 'GET /streams/{id}', method: 'GET', path: (id) => `/api/v1/streams/${id}`, options: () => ({}) },
    { label: 'GET /users/me/{id}/topics', method: 'GET', path: (id) => `/api/v1/users/me/${id}/topics`, options: () => ({}) },
    {
      label: 'GET /users/me/{id}/topics allow_empty_topic_name',
      method: 'GET',
      path: (id) => `/api/v1/users/me/${id}/topics`,
      options: () => ({ query: { allow_empty_topic_name: 'true' } }),
    },
    {
      label: 'PATCH /streams/{id} description',
      method: 'PATCH',
      path: (id) => `/api/v1/streams/${id}`,
      options: () => ({ form: { description: 'probe' } }),
    },
    {
      label: 'PATCH /streams/{id} new_name',
      method: 'PATCH',
      path: (id) => `/api/v1/streams/${id}`,
      options: () => ({ form: { new_name: 'probe name' } }),
    },
    {
      label: 'PATCH /streams/{id} group setting',
      method: 'PATCH',
      path: (id) => `/api/v1/streams/${id}`,
      options: () => ({ form: { can_send_message_group: JSON.stringify({ new: 2 }) } }),
    },
    {
      label: 'PATCH /streams/{id} is_private',
      method: 'PATCH',
      path: (id) => `/api/v1/streams/${id}`,
      options: () => ({ form: { is_private: 'false' } }),
    },
    { label: 'DELETE /streams/{id}', method: 'DELETE', path: (id) => `/api/v1/streams/${id}`, options: () => ({}) },
    {
      label: 'POST /mark_topic_as_read',
      method: 'POST',
      path: () => '/api/v1/mark_topic_as_read',
      options: (id) => ({ form: { stream_id: String(id), topic_name: topic } }),
    },
    {
      label: 'POST /users/me/subscriptions/properties',
      method: 'POST',
      path: () => '/api/v1/users/me/subscriptions/properties',
      options: (id) => ({ form: { subscription_data: JSON.stringify([{ stream_id: id, property: 'color', value: '#abcdef' }]) } }),
    },
    {
      label: 'POST /messages to={id}',
      method: 'POST',
      send: true,
      path: () => '/api/v1/messages',
      options: (id) => ({ form: { type: 'stream', to: String(id), topic: topic, content: 'probe' } }),
    },
  ];
}

/** Operations that take channel names (§4.8 STREAM_DOES_NOT_EXIST with `stream`; send-message `to`). */
export function byNameProbes(subscriberId: number): NameProbe[] {
  const path = '/api/v1/users/me/subscriptions';
  return [
    { label: 'DELETE /users/me/subscriptions', method: 'DELETE', path, options: (n) => ({ form: { subscriptions: JSON.stringify([n]) } }) },
    {
      label: 'DELETE /users/me/subscriptions principals=[subscriber]',
      method: 'DELETE',
      path,
      options: (n) => ({ form: { subscriptions: JSON.stringify([n]), principals: JSON.stringify([subscriberId]) } }),
    },
    {
      label: 'POST /messages to=name',
      method: 'POST',
      send: true,
      path: '/api/v1/messages',
      options: (n) => ({ form: { type: 'stream', to: n, topic: 'probe', content: 'probe' } }),
    },
    {
      label: 'POST /messages to=["name"]',
      method: 'POST',
      send: true,
      path: '/api/v1/messages',
      options: (n) => ({ form: { type: 'channel', to: JSON.stringify([n]), topic: 'probe', content: 'probe' } }),
    },
  ];
}

/**
 * A bot may post to a channel its owner is subscribed to (reference server; permissions.ts
 * mayReachChannelForSending) and §4.15 lists such channels to it, so sending is no leak probe for it.
 */
export function ownerMaySend(tables: RealmState, account: Account, streamId: number): boolean {
  const channel = tables.channels[String(streamId)]!;
  return (
    ownerSubscribedIds(tables, account.user_id).has(streamId) && !hasMetadataAccess(tables, tables.users[String(account.user_id)]!, channel)
  );
}

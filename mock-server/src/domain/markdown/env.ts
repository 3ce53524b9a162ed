import type { ChannelRow, CustomEmojiRow, LinkifierRow, RealmState, UserGroupRow, UserRow } from '../../store/state.js';
import { topicMessages } from '../../store/indexes.js';
import { channelContentAccess, channelMetadataAccess } from '../access.js';
import { messageAccess } from '../messages/visibility.js';

/** What a rendering may resolve names against (spec §4.20, §2.5): the realm's tables and the author. */
export interface MarkdownContext {
  tables: Pick<
    RealmState,
    'realm' | 'users' | 'user_groups' | 'channels' | 'subscriptions' | 'messages' | 'user_messages' | 'custom_emoji' | 'linkifiers'
  >;
  /**
   * The author. Channel/topic links resolve only to channels the author may know (channelMetadataAccess
   * in domain/access.ts), and a topic link's newest message only among messages the author may read
   * (messageAccess); null = a context without an author, which sees what a spectator sees (the same
   * predicates with a null user: web-public channels and their messages only).
   */
  author: UserRow | null;
}

/** What a message mentions (the source of the mention flags of §2.5). */
export interface Mentions {
  /** Users mentioned by a non-silent user mention (`@**Full Name**`, `@**Full Name|ID**`), sorted, unique. */
  userIds: number[];
  /** Groups mentioned by a non-silent group mention (`@*group name*`), sorted, unique. */
  groupIds: number[];
  /** Non-silent wildcard: all/everyone/channel/stream → 'channel'; topic → 'topic'; else null ('channel' wins). */
  wildcard: 'channel' | 'topic' | null;
  /** A non-silent `@**topic**` too, even beside a channel wildcard: the wildcard-mention policy checks both. */
  topicWildcard: boolean;
}

/**
 * The state of one rendering, handed to every markdown-it rule as `env`: the context, what was
 * mentioned so far, and lookup maps built on first use only, so a message without mentions, links or
 * emoji never scans the realm's tables.
 */
export class RenderEnv {
  readonly userMentions = new Set<number>();
  readonly groupMentions = new Set<number>();
  channelWildcard = false;
  topicWildcard = false;
  /** Set while the inline content of a quote is parsed: mentions in quotes are silent (reference server). */
  inQuote = false;
  /** Image URLs already previewed: the reference server shows each image once per message. */
  readonly previewedImages = new Set<string>();

  private users?: { byName: Map<string, UserRow | null>; byId: Map<number, UserRow> };
  private groups?: Map<string, UserGroupRow>;
  private channels?: Map<string, ChannelRow>;
  /** Channel messages by `streamId\ntopic` (lower-cased), built on the first topic link. */
  /** The answers of latestInTopic, so repeated links to one topic check its messages once. */
  private readonly latest = new Map<string, number | undefined>();
  private emoji?: Map<string, CustomEmojiRow>;

  constructor(readonly ctx: MarkdownContext | null) {}

  mentions(): Mentions {
    const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
    return {
      userIds: sorted(this.userMentions),
      groupIds: sorted(this.groupMentions),
      wildcard: this.channelWildcard ? 'channel' : this.topicWildcard ? 'topic' : null,
      topicWildcard: this.topicWildcard,
    };
  }

  /**
   * Mentionable users: active accounts outside the system bots (bots included, as on the reference
   * server). Names compare case-insensitively; a name two users share resolves to nobody (null), so
   * only the `|ID` form can mention them.
   */
  private userMaps() {
    if (this.users) return this.users;
    const byName = new Map<string, UserRow | null>();
    const byId = new Map<number, UserRow>();
    for (const user of Object.values(this.ctx?.tables.users ?? {})) {
      if (!user.is_active || user.is_system_bot) continue;
      byId.set(user.user_id, user);
      const key = user.full_name.toLowerCase();
      byName.set(key, byName.has(key) ? null : user);
    }
    this.users = { byName, byId };
    return this.users;
  }

  userByName(name: string): UserRow | undefined {
    return this.userMaps().byName.get(name.toLowerCase()) ?? undefined;
  }

  userById(id: number): UserRow | undefined {
    return this.userMaps().byId.get(id);
  }

  /**
   * Groups mentionable by name: not deactivated, and not the system role groups (`role:members`, …),
   * which the reference server does not offer for mentions. Case-insensitive, like user names.
   */
  groupByName(name: string): UserGroupRow | undefined {
    if (!this.groups) {
      this.groups = new Map();
      for (const group of Object.values(this.ctx?.tables.user_groups ?? {})) {
        if (!group.deactivated && !group.is_system_group) this.groups.set(group.name.toLowerCase(), group);
      }
    }
    return this.groups.get(name.toLowerCase());
  }

  /**
   * A channel by its exact name, if the author may know it (channelMetadataAccess; with a null author,
   * what a spectator may know), so nothing private leaks through a rendered link.
   */
  channelByName(name: string): ChannelRow | undefined {
    const ctx = this.ctx;
    if (!ctx) return undefined;
    if (!this.channels) {
      this.channels = new Map();
      for (const channel of Object.values(ctx.tables.channels)) this.channels.set(channel.name, channel);
    }
    const channel = this.channels.get(name);
    return channel && channelMetadataAccess(ctx.tables, ctx.author, channel) ? channel : undefined;
  }

  /**
   * Newest message ID of a topic among the messages the author may read (topics compare
   * case-insensitively, as on the reference server); undefined when the author may read none of them,
   * exactly as for a topic without messages, so a link reveals neither the topic's existence nor its
   * IDs (e.g. protected history from before the author joined, or a channel the author only administers).
   * Without an author only the messages of a channel a spectator may read count (channelContentAccess
   * with a null user: web-public channels, whose history is always public, spec §4.16).
   */
  latestInTopic(channel: ChannelRow, topic: string): number | undefined {
    const ctx = this.ctx;
    if (!ctx) return undefined;
    const key = `${channel.stream_id}\n${topic.toLowerCase()}`;
    if (this.latest.has(key)) return this.latest.get(key);
    // The topic's messages from the store's index; newest first, the first readable message is the
    // answer, usually the very first one checked.
    const ids = topicMessages(ctx.tables, channel.stream_id, topic);
    const author = ctx.author;
    let latest: number | undefined;
    if (author) {
      for (const id of ids?.descending() ?? []) {
        if (messageAccess(ctx.tables, author, ctx.tables.messages[String(id)]!)) {
          latest = id;
          break;
        }
      }
    } else if (channelContentAccess(ctx.tables, null, channel)) latest = ids?.last;
    this.latest.set(key, latest);
    return latest;
  }

  /** An active custom emoji by name (spec §2.5 realm_emoji). */
  realmEmoji(name: string): CustomEmojiRow | undefined {
    if (!this.ctx) return undefined;
    if (!this.emoji) {
      this.emoji = new Map();
      for (const row of Object.values(this.ctx.tables.custom_emoji)) if (!row.deactivated) this.emoji.set(row.name, row);
    }
    return this.emoji.get(name);
  }

  /** The realm's linkifiers in display order (order, then ID), which is also their priority. */
  linkifiers(): LinkifierRow[] {
    if (!this.ctx) return [];
    return Object.values(this.ctx.tables.linkifiers).sort((a, b) => a.order - b.order || a.id - b.id);
  }
}

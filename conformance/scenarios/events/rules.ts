/**
 * The rules of conformance/rules/catalogue.json that this area checks, named by what they say (each ID
 * was looked up by the statement's text). One place to follow the catalogue if it is renumbered.
 */
export const R = {
  // §1 Conventions
  unsupportedParameters: 'R1-4', // From feature level 167, … ignored_parameters_unsupported
  emptyTopicDisplayed: 'R1-8', // For clients that do not declare empty-topic support, responses replace the empty string topic …
  groupSettingValue: 'R1-11', // Group-setting value: an integer or {direct_members, direct_subgroups}
  // §2 objects
  streamPostPolicy: 'R2.2-3', // stream_post_policy: 1 any user, 2 only administrators, …
  channelPermissionFields: 'R2.2-12', // the channel object also carries can_move_messages_within_channel_group, … on register
  subscribersPresent: 'R2.3-1', // subscribers: present only when include_subscribers is true
  partialSubscribers: 'R2.3-2', // partial_subscribers: with include_subscribers partial, may replace subscribers
  subscriberCount: 'R2.3-8', // subscriber_count: … clients maintain it from peer_add and peer_remove events
  messageContent: 'R2.5-3', // content: HTML when apply_markdown is true, else raw Markdown
  messageContentType: 'R2.5-4', // content_type: text/html or text/x-markdown
  // §3 event queue states and transition
  queueStates: 'R3-5', // Event queue: active, garbage-collected
  queueGarbageCollected: 'R3-10', // active event queue | 10 minutes without activity | garbage-collected | BAD_EVENT_QUEUE_ID
  // §4.6 drafts
  draftsSynchronized: 'R4.6-3', // Drafts are synchronized to other clients through drafts events.
  // §4.8 unsubscribe
  unsubscribeResult: 'R4.8-3', // Success returns removed and not_removed
  unsubscribePrincipalError: 'R4.8-8', // BAD_REQUEST for a deactivated or unknown principal (before 208: 403 UNAUTHORIZED_PRINCIPAL)
  archivedSubscriptions: 'R4.8-9', // From feature level 362 subscriptions of archived channels can be modified.
  // §4.15 channel list
  excludeArchived: 'R4.15-6', // exclude_archived | true | Exclude archived channels
  includeAll: 'R4.15-7', // include_all | false | All channels with metadata access (for administrators, all channels)
  includeAllActive: 'R4.15-11', // include_all_active | false | Deprecated; administrators only; use include_all
  // §4.16 update a channel
  archivedPrivacy: 'R4.16-3', // Changing privacy of archived channels is possible from feature level 362.
  streamPostPolicyRemoved: 'R4.16-21', // The removed parameters stream_post_policy and is_announcement_only are replaced …
  // §4.21 register
  registerSnapshot: 'R4.21-1', // Allocates an event queue and returns a snapshot of current data.
  registerAllOptional: 'R4.21-2', // All parameters optional.
  applyMarkdown: 'R4.21-3',
  clientGravatar: 'R4.21-4', // default true when authenticated, false otherwise; true unauthenticated is an error
  includeSubscribers: 'R4.21-5', // true, false or partial; true unauthenticated is an error; partial: < 250 full
  slimPresence: 'R4.21-6',
  presenceHistory: 'R4.21-7',
  eventTypes: 'R4.21-8', // all events by default; unsupported types are ignored
  allPublicStreams: 'R4.21-9',
  clientCapabilities: 'R4.21-10',
  fetchEventTypes: 'R4.21-11', // event_types, else null
  narrow: 'R4.21-12',
  capLinkifier: 'R4.21-13',
  capUserSettings: 'R4.21-14',
  capArchived: 'R4.21-16',
  capEmptyTopic: 'R4.21-17',
  capDeactivatedGroups: 'R4.21-18',
  capUserList: 'R4.21-19',
  queueIdNull: 'R4.21-20', // queue_id: null only for unauthenticated access in realms with public access
  lastEventId: 'R4.21-21',
  serviceFeatureLevel: 'R4.21-22',
  serviceVersion: 'R4.21-23',
  recentPrivateConversations: 'R4.21-24',
  navigationViews: 'R4.21-25',
  savedSnippets: 'R4.21-26',
  subscriptions: 'R4.21-27',
  channelFolders: 'R4.21-28',
  unreadMsgs: 'R4.21-29',
  // §5 authentication
  anonymousRegister: 'R5-4', // register without credentials where public access is enabled; queue_id null; …
  // §6 events
  eventsOperation: 'R6-1', // register returns queue_id and last_event_id; the events operation (long-polling) takes them
  queueExpiry: 'R6-2', // queues events for up to 10 minutes of inactivity, then garbage-collects the queue
  reRegister: 'R6-3', // a later fetch fails with BAD_EVENT_QUEUE_ID; the client must re-register
  heartbeat: 'R6-4', // a heartbeat event every minute
  eventTypesNamed: 'R6-5', // event types named by the interface: … subscription, … peer_add, peer_remove
  draftsEvents: 'R6-6', // creating drafts is followed by drafts events to the user's other clients
  queueLimited: 'R6-7', // a queue may be limited with event_types … and narrow
  narrowOnlyReceived: 'R6-8', // a narrow only filters messages the user receives …
  botSubscribedOnly: 'R6-9', // a bot receives channel messages only when subscribed to the channel
  // §7 errors
  badEventQueueId: 'R7-5',
  unauthorizedPrincipal: 'R7-6',
  // §8 limits
  queueInactivityLimit: 'R8-3',
  heartbeatInterval: 'R8-4',
  partialThreshold: 'R8-5',
  presenceDefault: 'R8-7',
  // §9 versioning
  featureLevelReported: 'R9-2',
  level167: 'R9-3',
  level333: 'R9-8',
  level356: 'R9-9',
  level315: 'R9-10',
  level407: 'R9-11',
  level412: 'R9-12',
} as const;

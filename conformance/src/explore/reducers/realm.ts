import { unhandled, type Reducers, type Row } from './rows.js';

/**
 * The organization's settings and lists (zulip.yaml `realm`, `realm_linkifiers` and the legacy
 * `realm_filters`, `realm_emoji`, `custom_profile_fields`) and the events that carry no state
 * (`heartbeat`, `restart`, `web_reload_client`).
 */
export const realmReducers: Reducers = {
  // A setting `x` is the register's `realm_x`; update_dict carries several (property `default`).
  realm: (s, e) => {
    if (e.op === 'update') s[`realm_${String(e.property)}`] = structuredClone(e.value);
    else if (e.op === 'update_dict')
      for (const [key, value] of Object.entries((e.data ?? {}) as Row)) s[`realm_${key}`] = structuredClone(value);
    // The organization is gone: its queues end, the register state no longer matters.
    else if (e.op !== 'deactivated') unhandled(e);
  },
  realm_linkifiers: (s, e) => {
    s.realm_linkifiers = structuredClone(e.realm_linkifiers);
  },
  realm_filters: (s, e) => {
    s.realm_filters = structuredClone(e.realm_filters);
  },
  realm_emoji: (s, e) => {
    if (e.op !== 'update') unhandled(e);
    s.realm_emoji = structuredClone(e.realm_emoji);
  },
  custom_profile_fields: (s, e) => {
    s.custom_profile_fields = structuredClone(e.fields);
  },
  heartbeat: () => {},
  restart: () => {},
  web_reload_client: () => {},
};

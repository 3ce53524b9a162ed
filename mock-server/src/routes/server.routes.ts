import { SERVICE_VERSION, compatibilityKeys } from '../config/version.js';
import { defineRoute, type RouteSpec } from '../http/define-routes.js';

const routes: RouteSpec[] = [
  // Not in the spec: the Python client calls it when constructed and asserts zulip_version is present
  // (reference "Compatibility with stock client libraries"). The spec's names plus the reference
  // server's names too, aliases (C1); the alias never reports a level whose wire form the server does not parse
  // (config/features.ts). Answered with or without credentials.
  defineRoute('get-server-settings', {
    // The realm's row and the server's own configuration only: the same for every caller.
    cache: { caller: 'none' },
    handle: ({ realm, realmId, app }) => {
      const compat = compatibilityKeys(realm.feature_level);
      return {
        service_feature_level: realm.feature_level,
        zulip_feature_level: compat.zulip_feature_level,
        service_version: SERVICE_VERSION,
        zulip_version: compat.zulip_version,
        zulip_merge_base: compat.zulip_merge_base,
        push_notifications_enabled: false,
        is_incompatible: false,
        email_auth_enabled: true,
        require_email_format_usernames: true,
        authentication_methods: { password: true, dev: false, email: true, ldap: false },
        external_authentication_methods: [],
        realm_uri: `http://${app.config.host}:${app.config.port}`,
        realm_url: `http://${app.config.host}:${app.config.port}`,
        realm_name: realm.name,
        realm_icon: '/static/images/logo/realm-icon.png',
        realm_description: '',
        realm_web_public_access_enabled: realm.enable_spectator_access,
        realm_id: realmId,
      };
    },
  }),
];

export default routes;

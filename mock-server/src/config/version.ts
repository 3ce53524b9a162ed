import { CURRENT_FEATURE_LEVEL, stockClientFeatureLevel } from './features.js';

/** service_version (spec §4.21, §9): names this implementation and the API level it emulates by default. */
export const SERVICE_VERSION = `teamchat-kit 0.1.0 (feature level ${CURRENT_FEATURE_LEVEL})`;

/**
 * The reference server's names (C1) for the version, kept as aliases for stock clients on GET
 * /server_settings and, companion tier, in register's answer (zulip-terminal reads zulip_version there
 * and fails without it). The level alias is never below the lowest whose wire form this server parses
 * (config/features.ts); zulip_merge_base, the release a build is based on, is the version itself here.
 */
export function compatibilityKeys(featureLevel: number): { zulip_feature_level: number; zulip_version: string; zulip_merge_base: string } {
  return { zulip_feature_level: stockClientFeatureLevel(featureLevel), zulip_version: SERVICE_VERSION, zulip_merge_base: SERVICE_VERSION };
}

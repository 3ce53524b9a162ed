import { PRESENCE_OFFLINE_THRESHOLD_SECONDS, PRESENCE_PING_INTERVAL_SECONDS } from '../../domain/live/presence.js';
import { TYPING_PERIODS_MS } from '../../domain/live/typing.js';

/**
 * Register keys of type `realm` for typing, presence and uploads (area live): how often clients report
 * presence and when a user counts as offline, how long a typing `start` lasts without a renewal, and
 * the largest file upload-file takes (the server's configured limit).
 */
export function liveRealmKeys(maxFileUploadMib: number): Record<string, unknown> {
  return {
    server_presence_ping_interval_seconds: PRESENCE_PING_INTERVAL_SECONDS,
    server_presence_offline_threshold_seconds: PRESENCE_OFFLINE_THRESHOLD_SECONDS,
    ...TYPING_PERIODS_MS,
    max_file_upload_size_mib: maxFileUploadMib,
  };
}

import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Control, RealmSummary } from '../control/control.js';
import type { QueueSummary } from '../control/queues.js';
import { redacted } from '../http/request-log.js';

/**
 * What the inspector page shows besides the request log, pushed on its feed (feed.ts): the server clock, every
 * realm (feature level, realm time, snapshots, live event queues with their pending events, fault rules with their
 * counts: at most 100 per realm, so the page follows them without asking) and which files of
 * the latest conformance report exist. Credentials are not in it: the page asks the control API for a realm's
 * when it shows them, so the feed never streams API keys. Queue events pass the request log's redaction too.
 */
export interface InspectorState {
  clock: { mode: string; server_now: number };
  realms: (RealmSummary & { snapshots: string[]; queues: QueueSummary[]; faults: ReturnType<Control['faults']> })[];
  report: { dir: string; files: { name: string; url: string; modified: number; bytes: number }[] };
}

/** The report files `teamchat conform` writes (conformance/src/report/index.ts), served under /__inspector/report/. */
export const REPORT_FILES = ['conformance.html', 'report.json', 'junit.xml'];

export function inspectorState(control: Control, reportDir: string): InspectorState {
  return {
    clock: control.clock(),
    realms: control.listRealms().map((realm) => ({
      ...realm,
      snapshots: control.listSnapshots(realm.realm_id),
      queues: redacted(control.queues(realm.realm_id)) as QueueSummary[],
      faults: control.faults(realm.realm_id),
    })),
    report: { dir: reportDir, files: REPORT_FILES.flatMap((name) => reportFile(reportDir, name)) },
  };
}

function reportFile(dir: string, name: string) {
  // A stat per file and push (at most one push per 100 ms): cheap, and always the latest run's files.
  const stat = statSync(join(dir, name), { throwIfNoEntry: false });
  return stat?.isFile() ? [{ name, url: `/__inspector/report/${name}`, modified: Math.round(stat.mtimeMs), bytes: stat.size }] : [];
}

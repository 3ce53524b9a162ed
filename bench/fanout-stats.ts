import { readFileSync } from 'node:fs';
import { LISTEN_BACKLOG } from '../mock-server/src/http/server.js';

/** The fan-out benchmark's arithmetic and the machine's bounds it prints (bench/fanout.ts): no I/O but /proc reads. */

/** Sockets beside the N polls: the control and send connections, the child's pipes, spare. */
const FD_MARGIN = 64;

export interface FanoutRun {
  recipients: number;
  messages: number;
  /** Time from the send to the last recipient's answer, per message: p50 and p99 (ms). */
  lastP50: number;
  lastP99: number;
  /** Every recipient's delivery time over all messages: p50 and p99 (ms). */
  deliveryP50: number;
  deliveryP99: number;
  /** CPU time per message, from the send to the last delivery (ms): the server's, and this load generator's. */
  serverCpuMs: number | null;
  clientCpuMs: number;
  /** The last delivery of the untimed first (warm-up) message, ms. */
  firstMs: number;
  /** VmRSS of the server with the N polls connected, and its peak (VmHWM), bytes. */
  rss: number | null;
  peakRss: number | null;
}

/** The value at quantile q of sorted values (nearest rank). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Per-message delivery times (ms from the send) to the figures of a run. */
export function summarize(
  rounds: readonly (readonly number[])[],
): Pick<FanoutRun, 'recipients' | 'messages' | 'lastP50' | 'lastP99' | 'deliveryP50' | 'deliveryP99'> {
  const last = rounds.map((r) => Math.max(...r)).sort((a, b) => a - b);
  const all = rounds.flat().sort((a, b) => a - b);
  const round2 = (n: number) => Number(n.toFixed(1));
  return {
    recipients: rounds[0]?.length ?? 0,
    messages: rounds.length,
    lastP50: round2(quantile(last, 0.5)),
    lastP99: round2(quantile(last, 0.99)),
    deliveryP50: round2(quantile(all, 0.5)),
    deliveryP99: round2(quantile(all, 0.99)),
  };
}

/** `Max open files` of /proc/<pid>/limits (soft, hard); null where there is none. */
export function openFileLimits(limits: string): { soft: number; hard: number } | null {
  const m = /^Max open files\s+(\S+)\s+(\S+)/m.exec(limits);
  if (!m) return null;
  const value = (s: string) => (s === 'unlimited' ? Number.POSITIVE_INFINITY : Number(s));
  return { soft: value(m[1]!), hard: value(m[2]!) };
}

export const readOr = (path: string) => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
};

/**
 * What bounds N here, printed with the figures: open files (this load generator and each server hold N
 * sockets; Node cannot raise its own limit, so a shell's `ulimit -n` before `npm run bench` is the way),
 * the listen backlog (the mock's, and the bare server's Node default of 511, both capped by somaxconn) and
 * the local ports.
 */
export function bounds(): { text: string; tooFewFiles: (users: number) => string | null } {
  const files = openFileLimits(readOr('/proc/self/limits') ?? '');
  const somaxconn = readOr('/proc/sys/net/core/somaxconn');
  const ports = readOr('/proc/sys/net/ipv4/ip_local_port_range')?.split(/\s+/).map(Number);
  const text = [
    files ? `open files ${files.soft} (hard ${files.hard}) per process` : 'open files: unknown',
    `listen backlog ${LISTEN_BACKLOG} (the mock; the bare server: 511, Node's default${somaxconn ? `; both capped by somaxconn ${somaxconn}` : ''})`,
    ports?.length === 2 ? `${ports[1]! - ports[0]! + 1} local ports` : null,
  ]
    .filter(Boolean)
    .join(', ');
  const tooFewFiles = (users: number) =>
    files && files.soft < users + FD_MARGIN
      ? `needs ${users + FD_MARGIN} open files per process, this one may have ${files.soft}` +
        (files.hard >= users + FD_MARGIN ? ` (run \`ulimit -n ${users + FD_MARGIN}\` first)` : ` (hard limit ${files.hard})`)
      : null;
  return { text, tooFewFiles };
}

/** User + system CPU time of a process so far (ms), from /proc/<pid>/stat; null elsewhere. */
export function cpuMsOfStat(stat: string | null, ticksPerSecond = 100): number | null {
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (!fields || fields.length < 13) return null;
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

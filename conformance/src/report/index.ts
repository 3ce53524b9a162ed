import type { RunResult } from '../model.js';
import { renderHtml } from './html.js';
import { renderJUnit } from './junit.js';
import { renderJson } from './json.js';

export { ConsoleReporter, renderConsoleSummary, type Output } from './console.js';
export { renderHtml } from './html.js';
export { renderJUnit } from './junit.js';
export { coverageOf, renderJson } from './json.js';

/** Reporters that write a file into --report-dir, by the name --reporter uses. */
export interface FileReporter {
  file: string;
  render(run: RunResult): string;
}

export const FILE_REPORTERS = {
  html: { file: 'conformance.html', render: renderHtml },
  junit: { file: 'junit.xml', render: renderJUnit },
  json: { file: 'report.json', render: renderJson },
} as const satisfies Record<string, FileReporter>;

export type FileReporterName = keyof typeof FILE_REPORTERS;
/** Every name --reporter accepts: the file reporters and `console` (progress and summary). */
export const REPORTER_NAMES = ['console', ...(Object.keys(FILE_REPORTERS) as FileReporterName[])] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];

export const isReporterName = (name: string): name is ReporterName => (REPORTER_NAMES as readonly string[]).includes(name);
export const isFileReporter = (name: ReporterName): name is FileReporterName => name !== 'console';

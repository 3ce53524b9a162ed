import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { RunResult } from '../model.js';
import type { Output } from './console.js';
import { FILE_REPORTERS, type FileReporterName } from './index.js';

/**
 * Writes a run's report files into `reportDir` (`teamchat conform`, `teamchat proxy`), saying where each went;
 * false, with the reason on `err`, when they could not be written. `command` names the program in that reason.
 */
export async function writeReportFiles(
  run: RunResult,
  names: readonly FileReporterName[],
  reportDir: string,
  io: { out: Output; err: Output },
  command: string,
): Promise<boolean> {
  if (names.length === 0) return true;
  const dir = resolve(reportDir);
  try {
    await mkdir(dir, { recursive: true });
    for (const name of names) {
      const { file, render } = FILE_REPORTERS[name];
      const path = join(dir, file);
      await writeFile(path, render(run));
      io.out.write(`${name} report: ${path}\n`);
    }
    return true;
  } catch (e) {
    io.err.write(`${command}: cannot write the reports to ${dir}: ${(e as Error).message}\n`);
    return false;
  }
}

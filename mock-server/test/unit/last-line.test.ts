import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

/**
 * The serve command's last line of defence (log.ts keepServingOnEscapedErrors), in a child process of its own:
 * an exception thrown in a timer and a rejection nobody handles are written to stderr and the process carries
 * on (vitest's own handlers would catch them in-process). Each known cause has its own test of its error path.
 */
const LOG = fileURLToPath(new URL('../../src/log.ts', import.meta.url));

it('logs an uncaught exception and an unhandled rejection, and keeps the process running', () => {
  const script = `
    import { keepServingOnEscapedErrors } from ${JSON.stringify(LOG)};
    keepServingOnEscapedErrors({ stderr: process.stderr });
    setTimeout(() => { throw new Error('boom in a timer'); }, 0);
    void Promise.reject(new Error('nobody waited'));
    setTimeout(() => { console.log('still running'); process.exit(0); }, 50);
  `;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(child.stderr).toContain('teamchat serve: uncaught exception (this is a bug; still serving): Error: boom in a timer');
  expect(child.stderr).toContain('teamchat serve: unhandled rejection (this is a bug; still serving): Error: nobody waited');
  expect(child.stdout).toContain('still running');
  expect(child.status).toBe(0);
});

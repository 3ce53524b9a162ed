import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { badRequest } from '../domain/errors.js';

/**
 * Where a realm export named by `fixture` may be read from. A request (`POST /__mock/realms`, a reset)
 * names a file under the operator's fixtures directory (`--fixtures-dir`; default the state file's
 * directory, the working directory when in memory) and nothing else: no `..` or absolute path leaving
 * it, no symbolic link leading out of it, no device, directory or pipe, nothing larger than
 * MAX_FIXTURE_BYTES. Everything is decided from the path and `stat` before the file is opened, so
 * `/dev/zero` is refused without a byte read, and no answer repeats a byte of any file.
 *
 * The operator's own `--fixture FILE` (config.fixture) is trusted as typed: the operator chose it on
 * the command line, so it may lie anywhere and be of any size; it still has to be a regular file.
 */
export const MAX_FIXTURE_BYTES = 64 * 1024 * 1024;

export interface FixtureSource {
  /** The fixtures directory, as configured (resolved against the working directory). */
  dir: string;
  /** The operator's `--fixture` value, read wherever it lies. */
  trusted: string;
}

/** The text of the realm export `fixture` names; a 400 naming the problem for anything else. */
export async function readFixtureText(fixture: string, source: FixtureSource): Promise<string> {
  if (fixture === source.trusted) return readRegularFile(fixture, resolve(fixture), Number.POSITIVE_INFINITY);
  return readRegularFile(fixture, await insideFixturesDir(fixture, source.dir), MAX_FIXTURE_BYTES);
}

const outside = (fixture: string) =>
  badRequest(
    `fixture ${JSON.stringify(fixture)}: not a file under the fixtures directory (--fixtures-dir); name "demo" or a realm export file inside it.`,
  );

/** The real path of `fixture` under `dir`, refused when the name or a link leaves the directory. */
async function insideFixturesDir(fixture: string, dir: string): Promise<string> {
  if (fixture === '' || fixture.includes('\0')) throw outside(fixture);
  let root: string;
  try {
    root = await realpath(dir);
  } catch {
    throw badRequest(`The fixtures directory ${dir} does not exist; start the server with --fixtures-dir <dir>.`);
  }
  // Checked on the name first, so a path outside is refused without touching the file system there.
  if (!within(root, resolve(root, fixture)) && !within(resolve(dir), resolve(dir, fixture))) throw outside(fixture);
  let real: string;
  try {
    real = await realpath(resolve(root, fixture));
  } catch {
    throw badRequest(`fixture ${JSON.stringify(fixture)}: no such file in the fixtures directory.`);
  }
  if (!within(root, real)) throw outside(fixture);
  return real;
}

function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`);
}

async function readRegularFile(fixture: string, path: string, maxBytes: number): Promise<string> {
  const name = JSON.stringify(fixture);
  let info;
  try {
    info = await stat(path);
  } catch {
    throw badRequest(`fixture ${name}: no such file.`);
  }
  if (!info.isFile()) throw badRequest(`fixture ${name} is not a regular file.`);
  if (info.size > maxBytes) throw tooLarge(name);
  // O_NONBLOCK: should the path have become a pipe since the stat, opening it does not wait for a writer.
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => {
    throw badRequest(`fixture ${name} cannot be read.`);
  });
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw badRequest(`fixture ${name} is not a regular file.`);
    if (opened.size > maxBytes) throw tooLarge(name);
    // Read at most the size seen plus one byte: a file growing meanwhile is cut, never read without end.
    const buffer = Buffer.alloc(opened.size + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > opened.size) throw badRequest(`fixture ${name} changed while it was read.`);
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    await handle.close();
  }
}

const tooLarge = (name: string) =>
  badRequest(`fixture ${name} is larger than ${MAX_FIXTURE_BYTES / (1024 * 1024)} MiB, the limit of a realm export named by a request.`);

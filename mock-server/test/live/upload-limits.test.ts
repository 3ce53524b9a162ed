import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { credentials, startTestServer } from '../helpers/test-server.js';
import { error, openQueue, tables } from '../helpers/harness.js';
import { fetchFile, upload } from './support.js';

/**
 * The configurable limits of uploads (--max-upload-mib, --upload-quota-mib), and where the bytes live:
 * in the journaled state, so they survive a restart and leave with a deleted or reset realm.
 */
const MIB = 1024 * 1024;
const servers: MockServer[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});
async function server(options: Parameters<typeof startTestServer>[0]) {
  const s = await startTestServer(options);
  servers.push(s);
  return s;
}

describe('size limit and quota', () => {
  it('a file over the limit is refused with the reference text; register announces the configured limit', async () => {
    const s = await server({ maxFileUploadMib: 1 });
    const member = credentials(s).member!;
    const res = await upload(s, member, [{ name: 'big.bin', content: Buffer.alloc(MIB + 1) }]);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: error('Uploaded file is larger than the allowed limit of 1 MiB'),
    });
    expect(tables(s).attachments).toEqual({});
    expect((await upload(s, member, [{ name: 'fits.bin', content: Buffer.alloc(MIB) }])).body.result).toBe('success');
    expect((await openQueue(s, member, { fetch_event_types: '["realm"]' })).snapshot.max_file_upload_size_mib).toBe(1);
  });

  it("past the realm's quota: refused until space is freed", async () => {
    const s = await server({ maxFileUploadMib: 1, uploadQuotaMib: 2 });
    const member = credentials(s).member!;
    const first = await upload(s, member, [{ name: 'a.bin', content: Buffer.alloc(MIB) }]);
    await upload(s, member, [{ name: 'b.bin', content: Buffer.alloc(MIB) }]);
    const over = await upload(s, member, [{ name: 'c.bin', content: Buffer.alloc(1) }]);
    expect(over.body).toEqual(error("Upload would exceed your organization's upload quota."));
    const id = (first.body.url as string).split('/')[3];
    await fetch(`${s.url}/api/v1/attachments/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Basic ${Buffer.from(`${member.email}:${member.api_key}`).toString('base64')}` },
    });
    expect((await upload(s, member, [{ name: 'c.bin', content: Buffer.alloc(1) }])).body.result).toBe('success');
  });
});

describe('storage', () => {
  it('an acknowledged upload survives a restart on the same state file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'teamchat-uploads-'));
    dirs.push(dir);
    const statePath = join(dir, 'state.json');
    const first = await startTestServer({ statePath, durability: 'write' });
    const member = credentials(first).member!;
    const url = (await upload(first, member, [{ name: 'keep.txt', content: 'kept' }])).body.url as string;
    await first.close();
    const second = await server({ statePath, durability: 'write' });
    const file = await fetchFile(second, url, credentials(second).member!);
    expect({ status: file.status, text: file.bytes.toString() }).toEqual({ status: 200, text: 'kept' });
  });

  it('a state file written before uploads existed (no attachment tables) loads and takes uploads', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'teamchat-uploads-old-'));
    dirs.push(dir);
    const statePath = join(dir, 'state.json');
    const first = await startTestServer({ statePath, durability: 'write' });
    await first.close();
    const doc = JSON.parse(await readFile(statePath, 'utf8')) as { realms: Record<string, Record<string, unknown>> };
    for (const realm of Object.values(doc.realms)) {
      delete realm.attachments;
      delete realm.attachment_files;
    }
    await writeFile(statePath, JSON.stringify(doc));
    const second = await server({ statePath, durability: 'write' });
    const member = credentials(second).member!;
    const url = (await upload(second, member, [{ name: 'new.txt', content: 'new' }])).body.url as string;
    expect((await fetchFile(second, url, member)).bytes.toString()).toBe('new');
  });

  it("a realm reset drops the realm's files", async () => {
    const s = await server({});
    const member = credentials(s).member!;
    const url = (await upload(s, member, [{ name: 'tmp.txt', content: 'tmp' }])).body.url as string;
    await s.control.resetRealm('demo');
    expect(tables(s).attachment_files).toEqual({});
    expect((await fetchFile(s, url, credentials(s).member!)).status).toBe(404);
  });
});

import { FormData, request } from 'undici';
import type { MockServer } from '../../src/app.js';
import { basic, type Reply, type Who } from '../helpers/test-server.js';

/** Helpers of the live area's upload tests: multipart bodies with file parts, and raw file reads. */

export interface FilePart {
  field?: string;
  name: string;
  type?: string;
  content: string | Buffer;
}

/** POST /user_uploads with the given file parts (and text fields), as a browser or zulip-js would send them. */
export async function upload(server: MockServer, as: Who | null, files: FilePart[], fields: Record<string, string> = {}): Promise<Reply> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files)
    form.append(
      f.field ?? 'file',
      new Blob([typeof f.content === 'string' ? f.content : new Uint8Array(f.content)], { type: f.type ?? 'text/plain' }),
      f.name,
    );
  const res = await request(`${server.url}/api/v1/user_uploads`, {
    method: 'POST',
    headers: as ? { authorization: basic(as) } : {},
    body: form,
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, body: JSON.parse(text) as Record<string, unknown>, text };
}

/** GET of a served file: status, headers and the raw bytes. */
export async function fetchFile(server: MockServer, path: string, as: Who | null) {
  const res = await request(`${server.url}${path}`, { headers: as ? { authorization: basic(as) } : {} });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, bytes, json: () => JSON.parse(bytes.toString('utf8')) as Record<string, unknown> };
}

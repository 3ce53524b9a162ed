import { gunzipSync, inflateSync, brotliDecompressSync } from 'node:zlib';
import busboy from 'busboy';

/**
 * The request's parameters as the server reads them (spec §1: the query string, and form fields of a
 * URL-encoded or multipart body; the reference reads both for every method), and the answer's body as
 * JSON. File parts of a multipart body are never parameters (openapi/ upload-file).
 */
export async function requestParams(
  pathAndQuery: string,
  contentType: string | undefined,
  body: Buffer | null,
): Promise<Record<string, string> | null> {
  const at = pathAndQuery.indexOf('?');
  const out: Record<string, string> = {};
  if (at >= 0) for (const [k, v] of new URLSearchParams(pathAndQuery.slice(at + 1))) out[k] = v;
  if (body === null) return null;
  if (body.length === 0) return out;
  const type = (contentType ?? '').toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded')) {
    for (const [k, v] of new URLSearchParams(body.toString('utf8'))) out[k] = v;
  } else if (type.startsWith('multipart/form-data')) {
    const fields = await multipartFields(contentType!, body).catch(() => null);
    if (fields === null) return null;
    Object.assign(out, fields);
  }
  return out;
}

function multipartFields(contentType: string, body: Buffer): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const parser = busboy({ headers: { 'content-type': contentType } });
    parser.on('field', (name, value) => (fields[name] = value));
    // A file part cut before its closing boundary fails its own stream as well as the parser ("Unexpected end
    // of form"); that error had no listener and ended the process, the run's reports unwritten.
    parser.on('file', (_name, stream) => {
      stream.on('error', reject);
      stream.resume();
    });
    parser.on('close', () => resolve(fields));
    parser.on('error', reject);
    parser.end(body);
  });
}

/**
 * The most a compressed answer (kept because it fit the capture cap) is decoded to. Without a bound, a
 * sub-megabyte gzip of spaces decodes to gigabytes: it stalled the proxy (decoding is synchronous) and
 * then crashed it (a string past V8's limit), losing the run's reports. Past this the answer is forwarded
 * without a verdict, like one past the capture cap.
 */
export const DECODED_CAP = 16 * 1024 * 1024;

/** The answer as JSON (decompressed as its Content-Encoding says), its text when not JSON, null when not kept. */
export function responseBody(body: Buffer | null, encoding: string | string[] | undefined): unknown {
  if (body === null) return null;
  let bytes = body;
  try {
    const coding = String(encoding ?? '').toLowerCase();
    const bounded = { maxOutputLength: DECODED_CAP };
    if (coding === 'gzip' || coding === 'x-gzip') bytes = gunzipSync(body, bounded);
    else if (coding === 'deflate') bytes = inflateSync(body, bounded);
    else if (coding === 'br') bytes = brotliDecompressSync(body, bounded);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return null;
    return '<undecodable body>';
  }
  const text = bytes.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productCache } from '../../src/config/cache.js';
import { AJV_OPTIONS, DEFAULT_OPENAPI_PATH, documentKey, documentOf, loadOperations, prepareDocument } from '../../src/http/openapi.js';

/**
 * The OpenAPI document as a product (config/cache.ts): dereferenced once per YAML text, keyed by the text's
 * hash and the preparer's version, shipped with the artefact or cached, and read back instead of the YAML.
 * Here: the product is the document the YAML gives, and a changed YAML is another product.
 */
const text = await readFile(DEFAULT_OPENAPI_PATH, 'utf8');
const prepared = await prepareDocument(text);
let root: string;
beforeAll(async () => void (root = await mkdtemp(join(tmpdir(), 'teamchat-document-cache-'))));
afterAll(async () => rm(root, { recursive: true, force: true }));

describe('the OpenAPI document, cached', () => {
  it('survives JSON: cached and read back by another process, it equals the document prepared from the YAML', async () => {
    const dir = join(root, 'a');
    expect(JSON.stringify(prepared)).not.toContain('"$ref"');
    // An edited copy of the text: a key no earlier test or process of this run has kept in memory.
    const copy = `${text}\n# a copy\n`;
    const first = await documentOf(copy, productCache(dir, { shipped: null }));
    expect(first).toEqual(JSON.parse(JSON.stringify(prepared)));
    expect(await readdir(dir)).toHaveLength(1);
    // What a second process finds: the entry, read from the cache directory alone.
    const { value } = await readEntryOf(dir, documentKey(copy));
    expect(value).toEqual(JSON.parse(JSON.stringify(prepared)));
  });

  it('is keyed by the YAML text: an edited YAML is another product, read afresh and cached beside the first', async () => {
    const dir = join(root, 'b');
    const cache = productCache(dir, { shipped: null });
    const base = `${text}\n# b\n`;
    expect((await documentOf(base, cache)).info.title).not.toBe('Edited');
    const edited = base.replace(/^(\s+title:).*$/m, '$1 Edited');
    expect(edited).not.toBe(base);
    expect(documentKey(edited)).not.toBe(documentKey(base));
    expect((await documentOf(edited, cache)).info.title).toBe('Edited');
    expect(await readdir(dir)).toHaveLength(2);
  });

  it('is found in the cache before being prepared again (a planted entry under the key answers)', async () => {
    const dir = join(root, 'c');
    const cache = productCache(dir, { shipped: null });
    const base = `${text}\n# c\n`;
    const planted = { ...prepared, info: { title: 'planted', version: '0' } };
    expect(await cache.write('openapi', documentKey(base), [JSON.stringify(planted)])).toBe(true);
    expect((await documentOf(base, cache)).info.title).toBe('planted');
  });
});

async function readEntryOf(dir: string, key: string): Promise<{ value: unknown }> {
  let line = '';
  const value = await productCache(dir, { shipped: null }).read('openapi', key, () => ({
    line: (t: string) => void (line = t),
    done: () => JSON.parse(line) as unknown,
  }));
  return { value };
}

describe('validators compiled on first use', () => {
  it("every parameter's schema compiles, once: the same function answers again, with its errors", async () => {
    const operations = await loadOperations();
    const params = operations.flatMap((op) => op.params);
    expect(params.length).toBeGreaterThan(100);
    for (const param of params) {
      const first = param.validate;
      expect(typeof first).toBe('function');
      expect(param.validate).toBe(first);
    }
    // The server compiles without checking schemas against the meta-schema (start-up and first requests
    // skip that work): this is that check, for every parameter.
    const checker = new Ajv({ ...AJV_OPTIONS });
    const invalid = params.filter((p) => !checker.validateSchema(p.schema)).map((p) => p.name);
    expect(invalid).toEqual([]);
    const id = params.find((p) => p.name === 'message_id' && p.types.includes('integer'))!;
    expect(id.validate('x')).toBe(false);
    expect(id.validate.errors?.[0]?.keyword).toBe('type');
  });
});

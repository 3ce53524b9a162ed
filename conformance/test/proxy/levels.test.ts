import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { request } from 'undici';
import { startTarget, type TestTarget } from './target.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRules } from '../../src/catalogue.js';
import type { RuleDef } from '../../src/model.js';
import { OPENAPI_PATH, ResponseSchemas } from '../../src/openapi.js';
import { ContractFacts } from '../../src/proxy/contract.js';
import { startProxy } from '../../src/proxy/proxy.js';

/**
 * Which feature level the proxy judges a realm by that announced none (no register or server settings seen for
 * its users): the server's while one level was announced, unknown once realms announced different ones (the
 * mock's realms, made through the control API at their own levels), rather than another realm's.
 */
let schemas: ResponseSchemas;
let facts: ContractFacts;
let catalogue: RuleDef[];
let target: TestTarget;
let targetUrl: string;

const basic = (email: string) => `Basic ${Buffer.from(`${email}:0123456789abcdef0123456789abcdef`).toString('base64')}`;

beforeAll(async () => {
  let api: OpenAPIV3_1.Document;
  [api, schemas, facts, catalogue] = await Promise.all([
    SwaggerParser.dereference(OPENAPI_PATH) as Promise<OpenAPIV3_1.Document>,
    ResponseSchemas.load(),
    ContractFacts.load(),
    loadRules(),
  ]);
  const example = (path: string, method: 'get' | 'post', name: string) =>
    (
      (api.paths![path]![method]!.responses!['200'] as OpenAPIV3_1.ResponseObject).content!['application/json']!.examples![
        name
      ] as OpenAPIV3_1.ExampleObject
    ).value as Record<string, unknown>;
  // A channel with fields of level 407 (channel delete-permission groups).
  const streams = example('/api/v1/streams', 'get', 'one-channel');
  const settings = example('/api/v1/server_settings', 'get', 'current');
  target = await startTarget((req, res) => {
    const level = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('level') ?? 412);
    const body = req.url?.startsWith('/api/v1/streams')
      ? streams
      : { ...settings, service_feature_level: level, zulip_feature_level: level };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  targetUrl = target.url;
}, 30_000);
afterAll(() => target.close());

/** The rules broken by `GET /streams` as `as` after the given announcements (`[email or null, level]`). */
async function brokenAfter(announced: [string | null, number][], as: string, path = '/api/v1/streams'): Promise<string[]> {
  const proxy = await startProxy({ target: targetUrl, schemas, facts, catalogue });
  for (const [who, level] of announced)
    await (
      await request(`${proxy.url}/api/v1/server_settings?level=${level}`, { headers: who ? { authorization: basic(who) } : {} })
    ).body.text();
  await (await request(`${proxy.url}${path}`, { headers: { authorization: basic(as) } })).body.text();
  const run = await proxy.stop();
  return run.scenarios.find((s) => s.id === 'get-streams')!.checks.flatMap((c) => (c.ok ? [] : [c.rule!]));
}

describe('teamchat proxy: the feature level of a realm that announced none', () => {
  it('is the server’s when one level was announced (a one-realm server)', async () => {
    expect(await brokenAfter([[null, 400]], 'iago@example.com')).toContain('R9-11');
    expect(
      await brokenAfter(
        [
          [null, 400],
          ['cordelia@other.test', 400],
        ],
        'iago@example.com',
      ),
    ).toContain('R9-11');
  });

  it('is unknown once realms announced different levels: no realm is judged by another’s', async () => {
    expect(
      await brokenAfter(
        [
          [null, 200],
          ['iago@realm-2.teamchat.test', 412],
        ],
        'iago@realm-3.teamchat.test',
      ),
    ).toEqual([]);
  });

  it('is still its own when it announced one', async () => {
    expect(
      await brokenAfter(
        [
          [null, 412],
          ['iago@realm-3.teamchat.test', 400],
        ],
        'iago@realm-3.teamchat.test',
      ),
    ).toContain('R9-11');
  });

  it('R1-4 (unknown parameters listed as ignored, from level 167) is judged only at a known level', async () => {
    const unlisted = '/api/v1/streams?colour=red';
    expect(await brokenAfter([[null, 412]], 'iago@example.com', unlisted)).toContain('R1-4');
    expect(await brokenAfter([], 'iago@example.com', unlisted)).not.toContain('R1-4');
    expect(
      await brokenAfter(
        [
          [null, 412],
          ['iago@realm-2.teamchat.test', 100],
        ],
        'iago@realm-3.teamchat.test',
        unlisted,
      ),
    ).not.toContain('R1-4');
    expect(await brokenAfter([['iago@realm-3.teamchat.test', 100]], 'iago@realm-3.teamchat.test', unlisted)).not.toContain('R1-4');
  });
});

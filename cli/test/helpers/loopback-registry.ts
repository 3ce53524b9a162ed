import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/**
 * An npm registry on loopback that serves the packages named (and everything they depend on) as the checkout's
 * node_modules holds them, so a test can run a real `npm install` of the packed tarball without contacting
 * anything beyond this machine, whatever npm's cache holds. Each package is served at one version, the one
 * installed here, packed with tar as npm packs (`package/…`), with its integrity.
 */
export async function loopbackRegistry(root: string, names: string[], dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const modules = join(root, 'node_modules');
  const manifests = new Map<string, Manifest>();
  const queue = [...names];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (manifests.has(name)) continue;
    const manifest = JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')) as Manifest;
    manifests.set(name, manifest);
    const wanted = { ...manifest.dependencies, ...manifest.optionalDependencies };
    for (const dependency of Object.keys(wanted)) if (existsSync(join(modules, dependency, 'package.json'))) queue.push(dependency);
  }
  const tarballs = new Map<string, string>();
  const packuments = new Map<string, string>();
  let url = '';
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!.slice(1));
    const tarball = tarballs.get(path);
    const packument = packuments.get(path);
    if (tarball !== undefined) {
      void readFile(tarball).then(
        (bytes) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes),
        () => res.writeHead(500).end(),
      );
    } else if (packument !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(packument);
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const [name, manifest] of manifests) {
    const file = `${name.replace('/', '-')}-${manifest.version}.tgz`;
    const path = join(dir, file);
    execFileSync('tar', ['-czf', path, '--transform', 's,^\\.,package,', '-C', join(modules, name), '.']);
    const bytes = readFileSync(path);
    tarballs.set(`-/${file}`, path);
    const dist = {
      tarball: `${url}/-/${file}`,
      integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
      shasum: createHash('sha1').update(bytes).digest('hex'),
    };
    const versions = { [manifest.version]: { ...manifest, dist } };
    packuments.set(name, JSON.stringify({ name, 'dist-tags': { latest: manifest.version }, versions }));
  }
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

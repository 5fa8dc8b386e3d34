import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';

/** A request a blob store received: what a registry redirected a client to, and whether credentials came along. */
export interface BlobStoreRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
}

/** A running blob store: its base URL, the requests it received, and how to stop it. */
export interface BlobStore {
  readonly baseURL: string;
  readonly requests: readonly BlobStoreRequest[];
  stop(): Promise<void>;
}

/**
 * A blob store for tests, standing in for the object store (S3, a CDN) that registries such as quay.io redirect layer
 * downloads to: serves the files of `root` (a distribution registry's filesystem storage, whose redirect middleware
 * names their paths) over HTTPS on another port, recording every request's Authorization header.
 */
export async function startBlobStore(root: string, serving: { cert: string; key: string }): Promise<BlobStore> {
  const requests: BlobStoreRequest[] = [];
  const server: Server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://store.invalid').pathname;
    requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization });
    const file = join(root, normalize(path));
    if (!file.startsWith(root) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(statSync(file).size) });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseURL: `https://localhost:${String(port)}/`, requests, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

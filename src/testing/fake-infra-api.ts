/**
 * A fake "infrastructure cluster" for the adversarial tests: what a tenant could point its HostedCluster's
 * infrastructure kubeconfig at. It answers as much of the Kubernetes API as the operator asks of an infrastructure
 * cluster (version, discovery, access reviews, lists and watches of VMs and instances, writes it echoes) with what the
 * test scripts, records every request with its Authorization header, and can answer like no API server at all (an HTML
 * error page), or without end (a list larger than any limit). HTTPS on the given address, with a CA of its own.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { certificatePem } from '../pki/index.ts';
import { createClusterCertificates } from '../local/cluster/certificates.ts';
import { toYaml } from '../lib/yaml.ts';

/** A request the fake received. */
export interface FakeRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
}

/** What the fake answers, changeable while it runs. */
export interface FakeScript {
  /** Objects listed per plural resource (`virtualmachines`, …); anything else lists empty. */
  items: Record<string, unknown[]>;
  /** A resource whose list is this many MiB of padding (a server that answers without end). */
  hugeList?: { readonly resource: string; readonly mebibytes: number };
  /** Answer every request with an HTML 500 page holding this text (a service that is no API server). */
  htmlError?: string;
}

/** A running fake. */
export interface FakeInfraApi {
  readonly server: string;
  readonly caPem: string;
  readonly requests: readonly FakeRequest[];
  readonly script: FakeScript;
  /** A kubeconfig for it with `user` as the user entry (YAML). */
  kubeconfig(user: Record<string, unknown>, namespace?: string): string;
  stop(): Promise<void>;
}

const RESOURCES: Record<string, Array<[kind: string, resource: string, namespaced: boolean]>> = {
  '/api/v1': [['Namespace', 'namespaces', false], ['Service', 'services', true], ['Secret', 'secrets', true], ['Event', 'events', true], ['ConfigMap', 'configmaps', true], ['PersistentVolumeClaim', 'persistentvolumeclaims', true]],
  '/apis/kubevirt.io/v1': [['VirtualMachine', 'virtualmachines', true], ['VirtualMachineInstance', 'virtualmachineinstances', true]],
  '/apis/cdi.kubevirt.io/v1beta1': [['DataVolume', 'datavolumes', true]],
  '/apis/networking.k8s.io/v1': [['NetworkPolicy', 'networkpolicies', true]],
  '/apis/discovery.k8s.io/v1': [['EndpointSlice', 'endpointslices', true]],
  '/apis/route.openshift.io/v1': [['Route', 'routes', true]],
  '/apis/authorization.k8s.io/v1': [['SelfSubjectAccessReview', 'selfsubjectaccessreviews', false]],
};

/** How long one watch of the fake lasts. */
const WATCH_LIFE_MS = 2_000;

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};
const notFound = (res: ServerResponse): void => json(res, 404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: 'not found' });

/** A list of `mebibytes` MiB: items padded with annotations, streamed. */
function hugeList(res: ServerResponse, mebibytes: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"kind":"List","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[');
  const pad = 'x'.repeat(64 * 1024);
  for (let i = 0; i < mebibytes * 16; i++) res.write(`${i === 0 ? '' : ','}{"metadata":{"name":"padding-${String(i)}","annotations":{"a":"${pad}"}}}`);
  res.end(']}');
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return {};
  }
}

/** The answer to a GET of what is no collection: version, discovery, a namespace; false when it is none of them. */
function answerFixed(res: ServerResponse, path: string): boolean {
  if (path === '/version') json(res, 200, { major: '1', minor: '36', gitVersion: 'v1.36.3-fake' });
  else if (RESOURCES[path] !== undefined) json(res, 200, { kind: 'APIResourceList', groupVersion: path.replace(/^\/apis?\//, ''), resources: RESOURCES[path].map(([kind, name, namespaced]) => ({ kind, name, namespaced, verbs: ['get', 'list', 'watch'] })) });
  else if (/^\/api\/v1\/namespaces\/[^/]+$/.test(path)) json(res, 200, { kind: 'Namespace', apiVersion: 'v1', metadata: { name: path.split('/').pop() } });
  else return false;
  return true;
}

/**
 * A watch: every scripted object as ADDED (an informer skips those it has), then the end. A client watches again at
 * once, so what the test scripts later reaches it within a watch's life.
 */
function watch(req: IncomingMessage, res: ServerResponse, items: readonly unknown[]): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  for (const object of items) res.write(`${JSON.stringify({ type: 'ADDED', object })}\n`);
  const timer = setTimeout(() => res.end(), WATCH_LIFE_MS);
  req.on('close', () => clearTimeout(timer));
}

/** A watch that ends at once with 410 Expired, as an API server's does for a version it no longer has. */
function expired(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(`${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410, message: 'too old resource version' } })}\n`);
}

/** A watch of `resource`; a server that answers without end also tells its watchers to list it again. */
const watchOf = (req: IncomingMessage, res: ServerResponse, resource: string, script: FakeScript): void =>
  script.hugeList?.resource === resource ? expired(res) : watch(req, res, script.items[resource] ?? []);

/** The plural resource a collection path names (namespaced or not). */
const resourceOf = (path: string): string | undefined => /\/namespaces\/[^/]+\/([^/]+)$/.exec(path)?.[1] ?? /^\/apis?\/.+\/([^/]+)$/.exec(path)?.[1];

/** The group-version root of a path: `/api/v1` or `/apis/<group>/<version>`. */
const groupVersionOf = (path: string): string => /^\/api\/[^/]+/.exec(path)?.[0] ?? /^\/apis\/[^/]+\/[^/]+/.exec(path)?.[0] ?? '';

/** Whether the path's group-version serves the resource: as an API server, others are not found (config.openshift.io). */
const serves = (path: string, resource: string): boolean => RESOURCES[groupVersionOf(path)]?.some(([, name]) => name === resource) ?? false;

/** The answer to a GET: the fixed ones, else a collection (or a watch of it). */
function answerGet(req: IncomingMessage, res: ServerResponse, url: URL, script: FakeScript): void {
  if (answerFixed(res, url.pathname)) return;
  const resource = resourceOf(url.pathname);
  if (resource === undefined || !serves(url.pathname, resource)) return notFound(res);
  if (url.searchParams.get('watch') === 'true') return watchOf(req, res, resource, script);
  if (script.hugeList?.resource === resource) return hugeList(res, script.hugeList.mebibytes);
  return json(res, 200, { kind: 'List', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items: script.items[resource] ?? [] });
}

async function answer(req: IncomingMessage, res: ServerResponse, script: FakeScript): Promise<void> {
  const url = new URL(req.url ?? '/', 'https://fake.invalid');
  if (script.htmlError !== undefined) {
    res.writeHead(500, { 'content-type': 'text/html' }).end(`<html><body><h1>Internal error</h1><p>${script.htmlError}</p></body></html>`);
    return;
  }
  if (req.method === 'GET') return answerGet(req, res, url, script);
  const body = (await bodyOf(req)) as Record<string, unknown>;
  if (url.pathname.endsWith('/selfsubjectaccessreviews')) return json(res, 201, { ...body, status: { allowed: true } });
  if (req.method === 'DELETE') return json(res, 200, { kind: 'Status', apiVersion: 'v1', status: 'Success' });
  // Writes (applies, creates): echoed back as stored.
  const metadata = (body['metadata'] ?? {}) as Record<string, unknown>;
  json(res, req.method === 'POST' ? 201 : 200, { ...body, metadata: { ...metadata, resourceVersion: '2', uid: 'fake' } });
}

/** Starts the fake on `host` (an address the operator's pod reaches). */
export async function startFakeInfraApi(host: string): Promise<FakeInfraApi> {
  const certs = await createClusterCertificates('fake-infra', [host]);
  const requests: FakeRequest[] = [];
  const script: FakeScript = { items: {} };
  const server: Server = createServer({ cert: certs.serving.cert, key: certs.serving.key }, (req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization });
    answer(req, res, script).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const url = `https://${host}:${String((server.address() as AddressInfo).port)}`;
  const caPem = certificatePem(certs.serverCa);
  return {
    server: url,
    caPem,
    requests,
    script,
    kubeconfig: (user, namespace = 'default') =>
      toYaml({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'infra', cluster: { server: url, 'certificate-authority-data': Buffer.from(caPem).toString('base64') } }],
        users: [{ name: 'infra', user }],
        contexts: [{ name: 'infra', context: { cluster: 'infra', user: 'infra', namespace } }],
        'current-context': 'infra',
      }),
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

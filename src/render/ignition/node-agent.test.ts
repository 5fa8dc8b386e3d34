import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { certificatePem, generateKeyPair, issueCertificate, privateKeyPem } from '../../pki/index.ts';
import { tarLayer } from '../../testing/tar-layer.ts';
import { materialiseIgnition } from './materialise.ts';
import { InPlaceAnnotations as A, InPlaceState, NODE_AGENT_PATH, NODE_AGENT_SCRIPT, NODE_AGENT_UNIT, nodeAgentUnit } from './node-agent.ts';
import { NodePaths, renderNodeIgnition, type NodeIgnitionInput } from './node-config.ts';

const NODE = 'machine-1';
const OLD_KUBELET = '#!/bin/sh\necho "Kubernetes v1.36.2"\n';
const NEW_KUBELET = '#!/bin/sh\necho "Kubernetes v1.36.3"\n';
const BROKEN_KUBELET = '#!/bin/sh\necho "kubelet: error while loading shared libraries" >&2\nexit 127\n';
const pullSecret = JSON.stringify({
  auths: {
    'quay.io': { auth: Buffer.from('quay-user:quay-pass').toString('base64') },
    'registry.example.com:5000': { username: 'example-user', password: 'example-pass' },
    'https://index.docker.io/v1/': { auth: Buffer.from('hub-user:hub-pass').toString('base64') },
  },
});

/**
 * A stand-in for containerd's ctr: it logs its arguments, "pulls" by remembering the reference (or fails as told),
 * lists that image with the target digest it was given, and serves blobs from a folder named by their digests.
 */
const FAKE_CTR = [
  '#!/bin/bash',
  'printf "%s\\n" "$*" >>"$FAKE_CTR_DIR/calls"',
  'while [[ $1 == --* ]]; do shift 2; done',
  'case "$1 $2" in',
  '  "images pull")',
  '    if [[ -n ${FAKE_CTR_PULL_ERROR:-} ]]; then echo "ctr: $FAKE_CTR_PULL_ERROR" >&2; exit 1; fi',
  '    echo "${@: -1}" >"$FAKE_CTR_DIR/pulled" ;;',
  '  "images ls")',
  '    echo "REF TYPE DIGEST SIZE PLATFORMS LABELS"',
  '    if [[ -f $FAKE_CTR_DIR/pulled ]]; then echo "$(cat "$FAKE_CTR_DIR/pulled") application/vnd.oci.image.index.v1+json $FAKE_CTR_TARGET 10.0 MiB linux/amd64,linux/arm64 -"; fi ;;',
  '  "content get")',
  '    cat "$FAKE_CTR_DIR/blobs/${3#sha256:}" 2>/dev/null || { echo "ctr: content digest $3: not found" >&2; exit 1; } ;;',
  '  "images rm") rm -f "$FAKE_CTR_DIR/pulled" ;;',
  '  *) echo "ctr: unexpected $*" >&2; exit 2 ;;',
  'esac',
  '',
].join('\n');

interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly contentType: string;
  readonly user: string;
  readonly body: Record<string, unknown> | undefined;
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
}

/** Fake hosted API server (HTTPS, client certificates required) and kubelet health endpoint. */
const api = { port: 0, healthzPort: 0, ca: '', clientPem: '', annotations: {} as Record<string, string>, requests: [] as Recorded[], healthy: true };
const servers: Server[] = [];

/** Applies a JSON merge patch's annotations to the Node's: null removes one. */
function mergeAnnotations(body: Record<string, unknown> | undefined): void {
  const patch = ((body?.['metadata'] ?? {}) as { annotations?: Record<string, string | null> }).annotations ?? {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete api.annotations[key];
    else api.annotations[key] = value;
  }
}

function handleApi(req: IncomingMessage, res: ServerResponse, text: string): void {
  const body = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
  const user = String((req.socket as TLSSocket).getPeerCertificate().subject.CN);
  api.requests.push({ method: String(req.method), path: String(req.url), contentType: String(req.headers['content-type']), user, body });
  if (req.url !== `/api/v1/nodes/${NODE}`) return void res.writeHead(404).end('{}');
  if (req.method === 'PATCH') mergeAnnotations(body);
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ kind: 'Node', metadata: { name: NODE, annotations: api.annotations } }));
}

async function startServers(): Promise<void> {
  const validity = { notBefore: new Date(Date.now() - 60_000), notAfter: new Date(Date.now() + 3_600_000) };
  const issuer = await issueCertificate({ commonName: 'hosted-root-ca', usage: 'ca', keys: await generateKeyPair(), serialNumber: '01', ...validity });
  const serverKeys = await generateKeyPair();
  const serving = await issueCertificate({ commonName: 'kube-apiserver', usage: 'server', ipAddresses: ['127.0.0.1'], keys: serverKeys, issuer, serialNumber: '02', ...validity });
  const clientKeys = await generateKeyPair();
  const client = await issueCertificate({ commonName: `system:node:${NODE}`, organizations: ['system:nodes'], usage: 'client', keys: clientKeys, issuer, serialNumber: '03', ...validity });
  api.ca = certificatePem(issuer);
  api.clientPem = certificatePem(client) + (await privateKeyPem(clientKeys.privateKey));
  const https = createHttpsServer({ cert: certificatePem(serving), key: await privateKeyPem(serverKeys.privateKey), ca: api.ca, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => handleApi(req, res, text));
  });
  const healthz = createHttpServer((_req, res) => void (api.healthy ? res.writeHead(200).end('ok') : res.writeHead(500).end('[-]syncloop failed')));
  for (const server of [https, healthz]) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
  }
  api.port = (https.address() as AddressInfo).port;
  api.healthzPort = (healthz.address() as AddressInfo).port;
}

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/** A machine as the served config leaves it once joined, plus the fake ctr, in a folder of its own. */
class Machine {
  readonly dir = mkdtempSync(join(tmpdir(), 'node-agent-'));
  readonly root = join(this.dir, 'root');
  readonly ctrDir = join(this.dir, 'ctr');
  target = '';

  constructor(options: { joined?: boolean } = {}) {
    const input: NodeIgnitionInput = { apiServerURL: `https://127.0.0.1:${String(api.port)}`, clusterCA: api.ca, bootstrapToken: 'abcdef.0123456789abcdef', clusterDNS: '172.31.0.10', clusterDomain: 'cluster.local', sandboxImage: 'registry.k8s.io/pause:3.10.1', pullSecret, nodeLabels: {}, taints: [], sshAuthorizedKeys: [] };
    for (const file of materialiseIgnition(renderNodeIgnition(input)).files) this.write(file.path, file.contents, file.mode);
    this.write(NodePaths.kubelet, OLD_KUBELET, 0o755);
    if (options.joined !== false) this.write(`${NodePaths.certDir}/kubelet-client-current.pem`, api.clientPem, 0o600);
    mkdirSync(join(this.ctrDir, 'blobs'), { recursive: true });
    writeFileSync(join(this.dir, 'ctr.sh'), FAKE_CTR, { mode: 0o755 });
  }

  write(path: string, contents: string | Buffer, mode: number): void {
    mkdirSync(dirname(join(this.root, path)), { recursive: true });
    writeFileSync(join(this.root, path), contents);
    chmodSync(join(this.root, path), mode);
  }

  read(path: string): string {
    return readFileSync(join(this.root, path), 'utf8');
  }

  blob(data: Buffer | string): string {
    const hex = sha256(data);
    writeFileSync(join(this.ctrDir, 'blobs', hex), data);
    return `sha256:${hex}`;
  }

  /** Stores an image (an index over a manifest for both usual platforms, and a decoy for another) and targets it. */
  image(layers: readonly { data: Buffer; gzip: boolean }[]): string[] {
    const layerDigests = layers.map((layer) => this.blob(layer.data));
    const manifest = JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: this.blob('{}'), size: 2 },
      layers: layers.map((layer, i) => ({ mediaType: `application/vnd.oci.image.layer.v1.tar${layer.gzip ? '+gzip' : ''}`, digest: layerDigests[i], size: layer.data.length })),
    });
    const entry = (architecture: string, digest: string): Record<string, unknown> => ({ mediaType: 'application/vnd.oci.image.manifest.v1+json', digest, size: 1, platform: { os: 'linux', architecture } });
    const manifestDigest = this.blob(manifest);
    this.target = this.blob(JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.index.v1+json', manifests: [entry('s390x', `sha256:${'0'.repeat(64)}`), entry('amd64', manifestDigest), entry('arm64', manifestDigest)] }));
    return layerDigests;
  }

  /** Runs one pass of the script the config installed, as its unit would but with this machine's paths. */
  run(env: Record<string, string> = {}): Promise<Run> {
    const child = spawn('bash', [join(this.root, NODE_AGENT_PATH), '--once'], {
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HCP_NODE_ROOT: this.root,
        HCP_NODE_NAME: NODE,
        HCP_CTR: join(this.dir, 'ctr.sh'),
        HCP_CONTAINERD_SOCKET: join(this.dir, 'containerd.sock'),
        HCP_REGISTRY_HOSTS: join(this.root, NodePaths.registryHosts),
        HCP_KUBELET_RESTART: `echo restarted >>'${join(this.dir, 'restarts')}'`,
        HCP_KUBELET_HEALTHZ: `http://127.0.0.1:${String(api.healthzPort)}/healthz`,
        HCP_KUBELET_HEALTHZ_SECONDS: '1',
        FAKE_CTR_DIR: this.ctrDir,
        FAKE_CTR_TARGET: this.target,
        ...env,
      },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
  }

  ctrCalls(): string[] {
    const file = join(this.ctrDir, 'calls');
    return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
  }

  restarts(): number {
    const file = join(this.dir, 'restarts');
    return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').length : 0;
  }

  /** What is left in the kubelet's folder besides the kubelet and its predecessor (temporary folders, say). */
  leftovers(): string[] {
    return readdirSync(join(this.root, dirname(NodePaths.kubelet))).filter((name) => !['kubelet', 'kubelet.previous'].includes(name));
  }
}

const IMAGE = 'quay.io/hcp-kubevirt/kubelet:v1.36.3';
const annotations = (desired: string, current: string, extra: Record<string, string> = {}): Record<string, string> => ({ [A.desiredConfig]: desired, [A.currentConfig]: current, [A.state]: InPlaceState.Done, [A.kubeletImage]: IMAGE, ...extra });
const patches = (): Record<string, unknown>[] => api.requests.filter((r) => r.method === 'PATCH').map((r) => ((r.body?.['metadata'] ?? {}) as { annotations: Record<string, unknown> }).annotations);

describe('node agent', () => {
  const machines: Machine[] = [];
  const machine = (options?: { joined?: boolean }): Machine => {
    const m = new Machine(options);
    machines.push(m);
    return m;
  };

  before(startServers);
  after(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));
  beforeEach(() => {
    api.requests = [];
    api.healthy = true;
  });
  afterEach(() => {
    for (const m of machines.splice(0)) rmSync(m.dir, { recursive: true, force: true });
  });

  it('When the desired config differs from the current one, it should install the image\'s last kubelet, restart it and report the config current', async () => {
    const m = machine();
    const layers = m.image([
      { data: tarLayer({ 'usr/bin/kubelet': OLD_KUBELET }, { prefix: '.' }), gzip: true },
      { data: tarLayer({ 'etc/motd': 'hello\n' }, { gzip: false, prefix: 'etc' }), gzip: false },
      { data: tarLayer({ 'usr/bin/kubelet': NEW_KUBELET, 'usr/share/doc/kubelet': 'docs\n' }, { prefix: 'usr' }), gzip: true },
    ]);
    api.annotations = annotations('rendered-b', 'rendered-a', { [A.reason]: 'an older failure' });

    const run = await m.run();

    assert.equal(run.code, 0, run.stdout);
    assert.equal(m.read(NodePaths.kubelet), NEW_KUBELET);
    assert.equal(m.read(`${NodePaths.kubelet}.previous`), OLD_KUBELET);
    assert.deepEqual(m.leftovers(), []);
    assert.equal(m.restarts(), 1);
    assert.deepEqual(patches(), [
      { [A.state]: InPlaceState.Working, [A.currentConfig]: null, [A.reason]: null },
      { [A.currentConfig]: 'rendered-b', [A.state]: InPlaceState.Done, [A.reason]: null },
    ]);
    assert.deepEqual(api.annotations, { [A.desiredConfig]: 'rendered-b', [A.currentConfig]: 'rendered-b', [A.state]: InPlaceState.Done, [A.kubeletImage]: IMAGE });
    assert.ok(api.requests.every((r) => r.user === `system:node:${NODE}`));
    assert.ok(api.requests.filter((r) => r.method === 'PATCH').every((r) => r.contentType === 'application/merge-patch+json'));
    const calls = m.ctrCalls();
    const prefix = `--address ${join(m.dir, 'containerd.sock')} --namespace hcp-node-agent --timeout 10m`;
    assert.equal(calls[0], `${prefix} images pull --local --hosts-dir ${join(m.root, NodePaths.registryHosts)} --user quay-user:quay-pass ${IMAGE}`);
    for (const digest of layers) assert.equal(calls.filter((c) => c === `${prefix} content get ${digest}`).length, 1, digest);
    assert.equal(calls.at(-1), `${prefix} images rm ${IMAGE}`);
    assert.doesNotMatch(run.stdout, /quay-pass/);
  });

  it('When the image\'s registry has an entry in the pull secret, only that entry\'s credentials should reach ctr', async () => {
    const cases: [image: string, pulled: string, user: string | undefined][] = [
      ['registry.example.com:5000/kubelet@sha256:' + 'a'.repeat(64), 'registry.example.com:5000/kubelet@sha256:' + 'a'.repeat(64), 'example-user:example-pass'],
      ['hcp/kubelet:v1.36.3', 'docker.io/hcp/kubelet:v1.36.3', 'hub-user:hub-pass'],
      ['kubelet', 'docker.io/library/kubelet:latest', 'hub-user:hub-pass'],
      ['ghcr.io/hcp/kubelet:v1.36.3', 'ghcr.io/hcp/kubelet:v1.36.3', undefined],
      ['localhost:5000/quay.io/kubelet:v1', 'localhost:5000/quay.io/kubelet:v1', undefined],
    ];
    for (const [image, pulled, user] of cases) {
      const m = machine();
      api.annotations = annotations('rendered-b', 'rendered-a', { [A.kubeletImage]: image });
      const run = await m.run({ FAKE_CTR_PULL_ERROR: 'failed to resolve reference: 401 Unauthorized' });
      assert.equal(run.code, 1, image);
      const pull = m.ctrCalls()[0] ?? '';
      assert.ok(pull.endsWith(` ${pulled}`), pull);
      assert.equal(/--user (\S+)/.exec(pull)?.[1], user, image);
      assert.equal(api.annotations[A.state], InPlaceState.Degraded);
      assert.equal(api.annotations[A.reason], `pulling ${pulled} failed: ctr: failed to resolve reference: 401 Unauthorized`);
      assert.equal(m.read(NodePaths.kubelet), OLD_KUBELET);
      assert.doesNotMatch(run.stdout, /-pass/);
    }
  });

  it('When the desired config is the current one, it should neither patch the Node nor call ctr', async () => {
    const m = machine();
    api.annotations = annotations('rendered-a', 'rendered-a');
    const run = await m.run();
    assert.equal(run.code, 0, run.stdout);
    assert.deepEqual(api.requests.map((r) => r.method), ['GET']);
    assert.deepEqual(m.ctrCalls(), []);
    assert.equal(run.stdout, '');
  });

  it('When the desired config is reverted to the current one after a failure, it should report Done and drop the reason', async () => {
    const m = machine();
    api.annotations = annotations('rendered-a', 'rendered-a', { [A.state]: InPlaceState.Degraded, [A.reason]: 'pulling failed' });
    assert.equal((await m.run()).code, 0);
    assert.deepEqual(patches(), [{ [A.state]: InPlaceState.Done, [A.reason]: null }]);
    assert.deepEqual(m.ctrCalls(), []);
  });

  it('When no config is desired, it should do nothing', async () => {
    const m = machine();
    api.annotations = {};
    assert.equal((await m.run()).code, 0);
    assert.deepEqual(api.requests.map((r) => r.method), ['GET']);
    assert.deepEqual(m.ctrCalls(), []);
  });

  it('When the image\'s kubelet does not run here, it should report Degraded with the reason and keep the old kubelet', async () => {
    const m = machine();
    m.image([{ data: tarLayer({ 'usr/bin/kubelet': BROKEN_KUBELET }, { prefix: 'usr' }), gzip: true }]);
    api.annotations = annotations('rendered-b', 'rendered-a');
    const run = await m.run();
    assert.equal(run.code, 1);
    assert.equal(api.annotations[A.state], InPlaceState.Degraded);
    assert.equal(api.annotations[A.reason], 'the kubelet of the image does not run here: --version exited with status 127: kubelet: error while loading shared libraries');
    assert.equal(api.annotations[A.currentConfig], undefined);
    assert.equal(m.read(NodePaths.kubelet), OLD_KUBELET);
    assert.equal(m.restarts(), 0);
    assert.deepEqual(m.leftovers(), []);
  });

  it('When the image holds no kubelet, a layer it cannot read, or content containerd lacks, it should say so in the reason', async () => {
    const m = machine();
    m.image([{ data: tarLayer({ 'etc/motd': 'hello\n' }, { prefix: 'etc' }), gzip: true }]);
    api.annotations = annotations('rendered-b', 'rendered-a');
    await m.run();
    assert.equal(api.annotations[A.reason], `image ${IMAGE} holds no usr/bin/kubelet`);
    m.image([{ data: Buffer.from('not a tar'), gzip: true }]);
    await m.run();
    assert.match(api.annotations[A.reason] ?? '', /^unpacking layer sha256:[0-9a-f]{64} failed: gzip: stdin: not in gzip format$/);
    const missing = `sha256:${'f'.repeat(64)}`;
    const run = await m.run({ FAKE_CTR_TARGET: missing });
    assert.equal(api.annotations[A.reason], `reading ${missing} of ${IMAGE} failed: ctr: content digest ${missing}: not found`);
    assert.doesNotMatch(run.stdout, /not found.*not found/s);
    assert.equal(m.read(NodePaths.kubelet), OLD_KUBELET);
  });

  it('When the new kubelet never answers ok, it should put the previous one back, restart it and report Degraded', async () => {
    const m = machine();
    m.image([{ data: tarLayer({ 'usr/bin/kubelet': NEW_KUBELET }, { prefix: 'usr' }), gzip: true }]);
    api.annotations = annotations('rendered-b', 'rendered-a');
    api.healthy = false;
    const run = await m.run();
    assert.equal(run.code, 1);
    assert.equal(m.read(NodePaths.kubelet), OLD_KUBELET);
    assert.equal(m.restarts(), 2);
    assert.equal(api.annotations[A.state], InPlaceState.Degraded);
    assert.equal(api.annotations[A.reason], `kubelet v1.36.3 did not answer ok on http://127.0.0.1:${String(api.healthzPort)}/healthz within 1 s; the previous kubelet was put back`);
    assert.equal(api.annotations[A.currentConfig], undefined);
  });

  it('When the machine has not joined yet (no client certificate), it should send no request', async () => {
    const m = machine({ joined: false });
    api.annotations = annotations('rendered-b', 'rendered-a');
    const run = await m.run();
    assert.equal(run.code, 0);
    assert.deepEqual(api.requests, []);
    assert.deepEqual(m.ctrCalls(), []);
  });
});

describe('renderNodeIgnition', () => {
  it('When a machine is configured, it should install the node agent executable and its unit enabled', () => {
    const config = materialiseIgnition(renderNodeIgnition({ apiServerURL: 'https://api.example:6443', clusterCA: 'ca', bootstrapToken: 'abcdef.0123456789abcdef', clusterDNS: '172.31.0.10', clusterDomain: 'cluster.local', sandboxImage: 'registry.k8s.io/pause:3.10.1', pullSecret: '{}', nodeLabels: {}, taints: [], sshAuthorizedKeys: [] }));
    assert.deepEqual(config.files.find((f) => f.path === NODE_AGENT_PATH), { path: NODE_AGENT_PATH, mode: 0o755, contents: NODE_AGENT_SCRIPT });
    assert.deepEqual(config.units.find((u) => u.name === NODE_AGENT_UNIT), { name: NODE_AGENT_UNIT, enabled: true, contents: nodeAgentUnit() });
    assert.match(nodeAgentUnit(), new RegExp(`^ExecStart=${NODE_AGENT_PATH}$`, 'm'));
    assert.match(nodeAgentUnit(), /^After=kubelet\.service$/m);
  });
});

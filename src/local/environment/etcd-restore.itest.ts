// Restore at creation run for real: a snapshot of a real etcd holding encrypted Secrets, put into a real S3-compatible
// store, fetched and checked by the etcd-init step, restored by the etcd-restore script as three members that then
// start through the member start script and form one cluster. And each refusal: another key, a cut or corrupted
// snapshot, missing or wrong credentials, an expired pre-signed URL.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createCipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MEMBER_START_SCRIPT, MemberStartEnv } from '../../controlplane/etcd/member-start.ts';
import { RESTORE_SCRIPT, RestoreEnv } from '../../controlplane/etcd/restore.ts';
import { toYaml } from '../../lib/yaml.ts';
import { awsCredentialsFile } from '../../objectstore/credentials.ts';
import { ObjectStoreError } from '../../objectstore/errors.ts';
import { S3Client } from '../../objectstore/s3.ts';
import { fetchSnapshot, SnapshotRefusedError, type FetchRequest } from '../../operator/etcd-snapshot-fetch.ts';
import { etcdToolsPath } from '../../testing/etcd-tools.ts';
import { eventually } from '../../testing/eventually.ts';
import { objectStoreForSuite } from '../../testing/object-store.ts';
import { runProcess } from '../../testing/process.ts';
import { freePort } from '../cluster/ports.ts';

const work = mkdtempSync(join(tmpdir(), 'hcp-etcd-restore-'));
const running: ChildProcess[] = [];
let path = '';
const KEY = randomBytes(32);
const SECRETS = 5;
const CONFIGMAPS = 100;

async function etcdctl(endpoints: string, args: readonly string[]): Promise<string> {
  const result = await runProcess('etcdctl', [`--endpoints=${endpoints}`, '--command-timeout=10s', ...args], { env: { PATH: path }, timeoutMs: 60_000 });
  if (result.code !== 0) throw new Error(`etcdctl ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/** Runs a command under `sh -c` in the background, its output kept for failures. */
function background(script: string, args: readonly string[], env: Record<string, string>): { log: () => string } {
  let log = '';
  const child = spawn('/bin/sh', ['-c', script, ...args], { env: { PATH: path, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr.on('data', (c: Buffer) => (log += c.toString()));
  running.push(child);
  return { log: () => log };
}

/** A Secret's stored form under `key`: AES-CBC of a protobuf-framed body, as the API server writes it. */
function encrypted(key: Buffer, body: string): Buffer {
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([Buffer.from('k8s:enc:aescbc:v1:key1:'), iv, cipher.update(Buffer.concat([Buffer.from('k8s\0'), Buffer.from(body)])), cipher.final()]);
}

/** Puts a binary value through etcd's JSON gateway (etcdctl takes values as arguments, which cannot hold every byte). */
async function putBinary(client: string, key: string, value: Buffer): Promise<void> {
  const answer = await fetch(`${client}/v3/kv/put`, { method: 'POST', body: JSON.stringify({ key: Buffer.from(key).toString('base64'), value: value.toString('base64') }) });
  assert.equal(answer.status, 200, await answer.text());
}

/** A source cluster of one member with ConfigMaps and encrypted Secrets; its snapshot, saved by etcdctl. */
async function sourceSnapshot(): Promise<{ file: string; secrets: Map<string, Buffer> }> {
  const client = `http://127.0.0.1:${String(await freePort())}`;
  const peer = `http://127.0.0.1:${String(await freePort())}`;
  background('exec etcd "$@"', ['etcd', '--name=source', `--data-dir=${join(work, 'source')}`, `--listen-client-urls=${client}`, `--advertise-client-urls=${client}`, `--listen-peer-urls=${peer}`, `--initial-advertise-peer-urls=${peer}`, `--initial-cluster=source=${peer}`], {});
  await eventually('the source etcd', () => etcdctl(client, ['endpoint', 'health']).then(() => true, () => undefined), 30_000, 200);
  for (let i = 0; i < CONFIGMAPS; i++) await putBinary(client, `/registry/configmaps/demo/cm-${String(i)}`, Buffer.from(`k8s\0configmap ${String(i)}`));
  const secrets = new Map<string, Buffer>();
  for (let i = 0; i < SECRETS; i++) {
    const value = encrypted(KEY, `secret ${String(i)}`);
    secrets.set(`/registry/secrets/demo/s-${String(i)}`, value);
    await putBinary(client, `/registry/secrets/demo/s-${String(i)}`, value);
  }
  const file = join(work, 'source.db');
  await etcdctl(client, ['snapshot', 'save', file]);
  return { file, secrets };
}

const encryptionConfig = (key: Buffer): string => {
  const file = join(work, `encryption-${key.toString('hex').slice(0, 8)}.yaml`);
  writeFileSync(file, toYaml({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'EncryptionConfiguration', resources: [{ resources: ['secrets'], providers: [{ aescbc: { keys: [{ name: 'key1', secret: key.toString('base64') }] } }, { identity: {} }] }] }));
  return file;
};

/** A member's name and loopback URLs. */
interface Member {
  readonly name: string;
  readonly client: string;
  readonly peer: string;
}

/** A member's volume, as the pod mounts it at /var/lib. */
const volume = (name: string): { dataDir: string; restoreDir: string } => ({ dataDir: join(work, name, 'data'), restoreDir: join(work, name, 'restore') });

describe('etcd restored at creation from an object store', { timeout: 300_000 }, () => {
  const suite = objectStoreForSuite();
  let source: { file: string; secrets: Map<string, Buffer> };
  let s3: S3Client;
  const stateFile = join(work, 'cluster-state');
  const credentialsFile = join(work, 'credentials');
  const caFile = join(work, 'ca.pem');
  const request = (member: string, url: string, extra: Partial<FetchRequest> = {}): FetchRequest => ({
    url, dataDir: volume(member).dataDir, out: join(volume(member).restoreDir, 'snapshot.db'), clusterStateFile: stateFile, encryptionConfigFile: encryptionConfig(KEY), caFile, ...extra,
  });

  before(async () => {
    path = await etcdToolsPath();
    source = await sourceSnapshot();
    writeFileSync(stateFile, 'new');
    writeFileSync(caFile, suite.store.ca);
    writeFileSync(credentialsFile, `${awsCredentialsFile(suite.store.credentials)}endpoint_url = ${suite.store.endpoint}\nregion = ${suite.store.region}\n`);
    s3 = new S3Client(suite.store.target('backups'));
    await s3.ensureBucket();
    const whole = readFileSync(source.file);
    await s3.putObject('demo/whole.db', whole);
    await s3.putObject('demo/cut.db', whole.subarray(0, Math.floor(whole.length / 2)));
    const corrupt = Buffer.from(whole);
    corrupt[4096] = (corrupt[4096] as number) ^ 0xff;
    await s3.putObject('demo/corrupt.db', corrupt);
  });

  after(() => {
    s3.close();
    for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(work, { recursive: true, force: true });
  });

  /** Fetches, restores and starts one member as its pod would; answers its log. */
  async function restoreAndStart(url: string, m: Member, members: readonly Member[]): Promise<() => string> {
    const initialCluster = members.map((x) => `${x.name}=${x.peer}`).join(',');
    const outcome = await fetchSnapshot(request(m.name, url));
    // Every value opens; bbolt may hold a value twice (a page freed by a later write keeps the old copy).
    const [, opened = '0', sampled] = /\((\d+) of (\d+) sampled values\)/.exec(outcome.kind === 'fetched' ? outcome.note : '') ?? [];
    assert.ok(Number(opened) >= SECRETS && opened === sampled, `every sampled value opens: ${opened} of ${String(sampled)}`);
    const env = { [MemberStartEnv.name]: m.name, [MemberStartEnv.peerURL]: m.peer, [MemberStartEnv.dataDir]: volume(m.name).dataDir, [RestoreEnv.dir]: volume(m.name).restoreDir, [RestoreEnv.initialCluster]: initialCluster };
    const restored = await runProcess('/bin/sh', ['-c', RESTORE_SCRIPT], { env: { PATH: path, ...env }, timeoutMs: 60_000 });
    assert.equal(restored.code, 0, restored.stderr);
    assert.equal(existsSync(volume(m.name).restoreDir), false, 'the snapshot is gone once restored');
    const flags = [`--name=${m.name}`, `--data-dir=${volume(m.name).dataDir}`, `--listen-client-urls=${m.client}`, `--advertise-client-urls=${m.client}`, `--listen-peer-urls=${m.peer}`, `--initial-advertise-peer-urls=${m.peer}`, `--initial-cluster=${initialCluster}`, '--initial-cluster-token=etcd-cluster'];
    const startEnv = { ...env, [MemberStartEnv.clusterURL]: members.map((x) => x.client).join(','), [MemberStartEnv.clientTLS]: '', [MemberStartEnv.clusterStateFile]: stateFile };
    return background(MEMBER_START_SCRIPT, ['etcd', ...flags], startEnv).log;
  }

  it('When three members fetch a pre-signed URL and restore it, they should start as one cluster holding every key, the revision bumped', async () => {
    const url = await s3.presignGet('demo/whole.db', 600);
    const members = await Promise.all(['etcd-0', 'etcd-1', 'etcd-2'].map(async (name) => ({ name, client: `http://127.0.0.1:${String(await freePort())}`, peer: `http://127.0.0.1:${String(await freePort())}` })));
    const logs: Array<() => string> = [];
    for (const m of members) logs.push(await restoreAndStart(url, m, members));
    const endpoints = members.map((m) => m.client).join(',');
    await eventually('three healthy restored members', async () => ((await etcdctl(endpoints, ['endpoint', 'health', '--cluster']).catch(() => '')).match(/is healthy/g) ?? []).length === 3 || undefined, 60_000, 500).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${logs.map((l) => l()).join('\n')}`);
    });
    assert.equal((await etcdctl(endpoints, ['get', '--prefix', '/registry/configmaps/', '--count-only', '-w', 'fields'])).match(/"Count" : (\d+)/)?.[1], String(CONFIGMAPS));
    for (const [key, value] of source.secrets) {
      const kv = JSON.parse(await etcdctl(members[2]?.client ?? '', ['get', key, '-w', 'json', '--consistency=s'])) as { header: { revision: number }; kvs: Array<{ value: string }> };
      assert.ok(Buffer.from(kv.kvs[0]?.value ?? '', 'base64').equals(value), `${key} is byte for byte what was written`);
      assert.ok(kv.header.revision > 1_000_000_000, 'the revision moved past every revision the old cluster served');
    }
    assert.doesNotMatch(logs.map((l) => l()).join('\n'), /has no data/, 'every member started from its restored data');
  });

  it('When the cluster\'s key is another than the one that wrote the Secrets, it should refuse and keep nothing', async () => {
    const req = request('other-key', `s3://backups/demo/whole.db`, { credentialsFile, encryptionConfigFile: encryptionConfig(randomBytes(32)) });
    await assert.rejects(fetchSnapshot(req), (e: Error) => e instanceof SnapshotRefusedError && /encrypted with a key this cluster does not have/.test(e.message));
    assert.equal(existsSync(req.out), false);
    assert.equal(existsSync(`${req.out}.part`), false);
  });

  it('When the snapshot is cut short or corrupted, it should say which and keep nothing', async () => {
    const cut = request('cut', 's3://backups/demo/cut.db', { credentialsFile });
    await assert.rejects(fetchSnapshot(cut), /is not a whole etcd snapshot.*cut short/);
    await assert.rejects(fetchSnapshot(request('corrupt', 's3://backups/demo/corrupt.db', { credentialsFile })), /fails its SHA-256/);
    assert.equal(existsSync(cut.out), false);
  });

  it('When an s3:// URL comes without credentials, with wrong ones, or names no object, it should say so without echoing a secret', async () => {
    await assert.rejects(fetchSnapshot(request('none', 's3://backups/demo/whole.db')), /no credentials came with it.*hcp-kubevirt.io\/etcd-restore-credentials/);
    const wrong = join(work, 'wrong-credentials');
    writeFileSync(wrong, `${awsCredentialsFile({ accessKeyId: suite.store.credentials.accessKeyId, secretAccessKey: 'not-the-secret-0123456789' })}endpoint_url = ${suite.store.endpoint}\n`);
    await assert.rejects(fetchSnapshot(request('wrong', 's3://backups/demo/whole.db', { credentialsFile: wrong })), (e: Error) => e instanceof ObjectStoreError && e.kind === 'unauthorized' && !e.message.includes('not-the-secret'));
    await assert.rejects(fetchSnapshot(request('missing', 's3://backups/demo/nothing.db', { credentialsFile })), (e: Error) => e instanceof ObjectStoreError && e.kind === 'not-found');
  });

  it('When a pre-signed URL has expired, it should be refused by the store and the message should hold no signature', async () => {
    const url = await s3.presignGet('demo/whole.db', 1);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await assert.rejects(fetchSnapshot(request('expired', url)), (e: Error) => e instanceof ObjectStoreError && !/X-Amz-Signature|X-Amz-Credential/.test(e.message));
  });

  it('When the member has data or the cluster has run, it should fetch nothing and drop a snapshot an earlier attempt left', async () => {
    const withData = request('has-data', 'https://unreachable.invalid/snapshot.db');
    mkdirSync(join(withData.dataDir, 'member', 'wal'), { recursive: true });
    assert.equal((await fetchSnapshot(withData)).kind, 'skipped');
    const ran = join(work, 'existing');
    writeFileSync(ran, 'existing');
    const joining = request('joining', 'https://unreachable.invalid/snapshot.db', { clusterStateFile: ran });
    mkdirSync(volume('joining').restoreDir, { recursive: true });
    writeFileSync(joining.out, 'left by an attempt cut short');
    assert.equal((await fetchSnapshot(joining)).kind, 'skipped');
    assert.equal(existsSync(volume('joining').restoreDir), false);
  });

  it('When a snapshot waits but the cluster has run meanwhile, the restore step should leave it and the member join instead', async () => {
    const { dataDir, restoreDir } = volume('late');
    mkdirSync(restoreDir, { recursive: true });
    writeFileSync(join(restoreDir, 'snapshot.db'), readFileSync(source.file));
    const ran = join(work, 'existing');
    writeFileSync(ran, 'existing');
    const env = { [MemberStartEnv.name]: 'etcd-2', [MemberStartEnv.peerURL]: 'http://127.0.0.1:1', [MemberStartEnv.dataDir]: dataDir, [MemberStartEnv.clusterStateFile]: ran, [RestoreEnv.dir]: restoreDir, [RestoreEnv.initialCluster]: 'etcd-2=http://127.0.0.1:1' };
    const result = await runProcess('/bin/sh', ['-c', RESTORE_SCRIPT], { env: { PATH: path, ...env }, timeoutMs: 60_000 });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /the cluster has run: not restoring/);
    assert.deepEqual([existsSync(restoreDir), existsSync(dataDir)], [false, false], 'no data: member-start joins it to the running members');
  });
});

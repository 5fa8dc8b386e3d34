// The member start script run for real: three etcd processes on loopback, each started through the script as a pod's
// container starts it, then one member losing its data folder the way a deleted PersistentVolumeClaim loses it.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../cluster/ports.ts';
import { etcdToolsPath } from '../../testing/etcd-tools.ts';
import { eventually } from '../../testing/eventually.ts';
import { runProcess } from '../../testing/process.ts';
import { MEMBER_START_SCRIPT, MemberStartEnv } from '../../controlplane/etcd/member-start.ts';

interface Member {
  readonly name: string;
  readonly client: string;
  readonly peer: string;
  readonly dataDir: string;
  process?: ChildProcess;
  log: string;
}

const work = mkdtempSync(join(tmpdir(), 'hcp-etcd-members-'));
const members: Member[] = [];
let path = '';

const clusterURL = (): string => members.map((m) => m.client).join(',');
/** The cluster state file the ConfigMap stands for. */
const stateFile = join(work, 'cluster-state');

/** Starts a member as its container does: the script under `sh -c`, etcd's flags after it. */
function start(member: Member): void {
  const flags = [
    `--name=${member.name}`,
    `--data-dir=${member.dataDir}`,
    `--listen-client-urls=${member.client}`,
    `--advertise-client-urls=${member.client}`,
    `--listen-peer-urls=${member.peer}`,
    `--initial-advertise-peer-urls=${member.peer}`,
    `--initial-cluster=${members.map((m) => `${m.name}=${m.peer}`).join(',')}`,
    '--initial-cluster-token=etcd-cluster',
  ];
  const env = { PATH: path, [MemberStartEnv.name]: member.name, [MemberStartEnv.peerURL]: member.peer, [MemberStartEnv.clusterURL]: clusterURL(), [MemberStartEnv.dataDir]: member.dataDir, [MemberStartEnv.clientTLS]: '', [MemberStartEnv.clusterStateFile]: stateFile, [MemberStartEnv.joinTries]: '3' };
  member.log = '';
  const child = spawn('/bin/sh', ['-c', MEMBER_START_SCRIPT, 'etcd', ...flags], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (c: Buffer) => (member.log += c.toString()));
  child.stderr.on('data', (c: Buffer) => (member.log += c.toString()));
  member.process = child;
}

async function stop(member: Member): Promise<void> {
  const child = member.process;
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGKILL');
  });
}

async function etcdctl(args: readonly string[], endpoints = clusterURL()): Promise<string> {
  const result = await runProcess('etcdctl', [`--endpoints=${endpoints}`, '--command-timeout=5s', ...args], { env: { PATH: path }, timeoutMs: 30_000 });
  if (result.code !== 0) throw new Error(`etcdctl ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

/** `id, status, name` of every member, from `member list`. */
async function membership(): Promise<Array<{ id: string; status: string; name: string }>> {
  const lines = (await etcdctl(['member', 'list'])).trim().split('\n');
  return lines.map((l) => l.split(', ')).map(([id = '', status = '', name = '']) => ({ id, status, name }));
}

/** Resolves when every member is started and every endpoint healthy; returns the membership. */
function healthyCluster(replaced?: { name: string; id: string }): Promise<Array<{ id: string; status: string; name: string }>> {
  const tail = (m: Member): string => `${m.name}:\n${m.log.split('\n').slice(-15).join('\n')}`;
  return eventually('three started, healthy members', async () => {
    const list = await membership().catch(() => []);
    if (list.length !== 3 || list.some((m) => m.status !== 'started')) return undefined;
    if (replaced !== undefined && list.some((m) => m.name === replaced.name && m.id === replaced.id)) return undefined;
    const health = await etcdctl(['endpoint', 'health', '--cluster']).catch(() => '');
    return (health.match(/is healthy/g) ?? []).length === 3 ? list : undefined;
  }, 60_000, 500).catch((error: unknown) => {
    throw new Error(`${String(error)}\n${members.map(tail).join('\n')}`);
  });
}

describe('the etcd member start script', { timeout: 300_000 }, () => {
  before(async () => {
    path = await etcdToolsPath();
    for (const i of [0, 1, 2]) {
      const [client, peer] = [await freePort(), await freePort()];
      members.push({ name: `etcd-${String(i)}`, client: `http://127.0.0.1:${String(client)}`, peer: `http://127.0.0.1:${String(peer)}`, dataDir: join(work, `data-${String(i)}`), log: '' });
    }
  });

  after(async () => {
    await Promise.all(members.map(stop));
    rmSync(work, { recursive: true, force: true });
  });

  it('When two members form the cluster before the third starts, it should come up as a new member added to the running cluster', async () => {
    const [first, second, third] = members as [Member, Member, Member];
    start(first);
    start(second);
    await eventually('two members with quorum', () => etcdctl(['endpoint', 'health'], `${first.client},${second.client}`).then(() => true, () => undefined), 60_000, 500);
    assert.match(first.log + second.log, /no cluster answers/);
    start(third);
    const list = await healthyCluster();
    assert.match(third.log, /etcd-2 has no data: removing its old membership [0-9a-f]+\n.*adding it to the running cluster/s);
    assert.deepEqual(list.map((m) => m.name).sort(), ['etcd-0', 'etcd-1', 'etcd-2']);
  });

  it('When a member loses its data folder, it should be replaced in the membership and hold every key written before', async () => {
    const third = members[2] as Member;
    // The control plane has run: from now on no member may start a new cluster.
    writeFileSync(stateFile, 'existing');
    const before = await membership();
    for (const i of [1, 2, 3]) await etcdctl(['put', `/registry/test/key-${String(i)}`, `value-${String(i)}`]);
    await stop(third);
    rmSync(third.dataDir, { recursive: true, force: true });
    start(third);
    const old = before.find((m) => m.name === 'etcd-2');
    assert.ok(old !== undefined);
    const list = await healthyCluster(old);
    assert.equal(list.length, 3, 'its old entry is gone, it is back under a new ID');
    const local = await etcdctl(['get', '--prefix', '/registry/test/', '--print-value-only', '--consistency=s'], third.client);
    assert.deepEqual(local.trim().split('\n'), ['value-1', 'value-2', 'value-3']);
  });

  it('When two members of three lose their data, they should refuse to start an empty cluster, then join the survivor restored the manual\'s way', async () => {
    const [first, second, third] = members as [Member, Member, Member];
    await Promise.all(members.map(stop));
    for (const m of [second, third]) rmSync(m.dataDir, { recursive: true, force: true });
    start(first);
    start(second);
    start(third);
    await eventually('both empty members refusing', () => second.process?.exitCode !== null && third.process?.exitCode !== null, 60_000, 500);
    assert.deepEqual([second.process?.exitCode, third.process?.exitCode], [1, 1]);
    assert.match(third.log, /its cluster, which has run, does not answer .*restore from a backup/);
    // Quorum is lost: the manual's restore, from the survivor's own database, as a cluster of one that the others join.
    await stop(first);
    copyFileSync(join(first.dataDir, 'member', 'snap', 'db'), join(work, 'restored.snap.db'));
    rmSync(first.dataDir, { recursive: true, force: true });
    const restore = ['snapshot', 'restore', join(work, 'restored.snap.db'), `--data-dir=${first.dataDir}`, '--skip-hash-check', '--name', first.name, '--initial-cluster-token=etcd-cluster', '--initial-cluster', `${first.name}=${first.peer}`, '--initial-advertise-peer-urls', first.peer];
    const restored = await runProcess('etcdutl', restore, { env: { PATH: path }, timeoutMs: 60_000 });
    assert.equal(restored.code, 0, restored.stderr);
    start(first);
    start(second);
    start(third);
    await healthyCluster();
    const local = await etcdctl(['get', '--prefix', '/registry/test/', '--print-value-only', '--consistency=s'], second.client);
    assert.deepEqual(local.trim().split('\n'), ['value-1', 'value-2', 'value-3']);
  });

  it('When a member restarts with its data, it should start from it and leave the membership alone', async () => {
    const first = members[0] as Member;
    const before = await membership();
    await stop(first);
    start(first);
    const list = await healthyCluster();
    assert.deepEqual(list, before);
    assert.doesNotMatch(first.log, /has no data/);
  });
});

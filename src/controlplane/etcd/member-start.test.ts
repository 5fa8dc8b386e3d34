// The member start script's decisions, with stand-ins for etcd and etcdctl that record how they were called (the
// real ones run in `src/local/environment/etcd-member-start.itest.ts`).
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { runProcess } from '../../testing/process.ts';
import { MEMBER_START_SCRIPT, MemberStartEnv } from './member-start.ts';

const root = mkdtempSync(join(tmpdir(), 'hcp-member-start-'));
const bin = join(root, 'bin');
const data = join(root, 'data');
const calls = join(root, 'calls');
const PEER = 'https://etcd-1.etcd-discovery.ns.svc:2380';

/** A member list as etcdctl prints it: etcd-1 started earlier under ID 1b. */
const LIST = `0a, started, etcd-0, https://etcd-0.etcd-discovery.ns.svc:2380, https://etcd-0.etcd-discovery.ns.svc:2379, false
1b, started, etcd-1, ${PEER}, https://etcd-1.etcd-discovery.ns.svc:2379, false
2c, started, etcd-2, https://etcd-2.etcd-discovery.ns.svc:2380, https://etcd-2.etcd-discovery.ns.svc:2379, false`;
const ADDED = `Member 3d added to cluster ff\n\nETCD_NAME="etcd-1"\nETCD_INITIAL_CLUSTER="etcd-0=https://etcd-0.etcd-discovery.ns.svc:2380,etcd-1=${PEER}"\nETCD_INITIAL_CLUSTER_STATE="existing"\n`;

function tool(name: string, body: string): void {
  writeFileSync(join(bin, name), `#!/bin/sh\necho "${name} $*" >> ${calls}\n${body}\n`);
  chmodSync(join(bin, name), 0o755);
}

/** etcdctl answering `member list` with `list` (failing when absent) and `member add` with {@link ADDED}. */
function etcdctlAnswering(list: string | undefined): void {
  const listing = list === undefined ? 'echo "Error: context deadline exceeded" >&2; exit 1' : `cat <<'EOF'\n${list}\nEOF`;
  tool('etcdctl', `case "$*" in\n*"member list"*) ${listing}\n;;\n*"member add"*) cat <<'EOF'\n${ADDED}EOF\n;;\nesac`);
}

async function startMember(clusterState: 'new' | 'existing' | undefined, runAs?: string): Promise<{ code: number | null; out: string; calls: string[] }> {
  const stateFile = join(root, 'state');
  if (clusterState === undefined) rmSync(stateFile, { force: true });
  else writeFileSync(stateFile, clusterState);
  const env = { PATH: `${bin}:/usr/bin:/bin`, [MemberStartEnv.name]: 'etcd-1', [MemberStartEnv.peerURL]: PEER, [MemberStartEnv.clusterURL]: 'https://etcd-client.ns.svc:2379', [MemberStartEnv.dataDir]: data, [MemberStartEnv.clientTLS]: '--cacert=/ca.crt', [MemberStartEnv.clusterStateFile]: stateFile, [MemberStartEnv.joinTries]: '2' };
  const shell = runAs === undefined ? ['/bin/sh'] : ['setpriv', `--reuid=${runAs}`, `--regid=${runAs}`, '--clear-groups', '/bin/sh'];
  const result = await runProcess(shell[0] ?? '', [...shell.slice(1), '-c', MEMBER_START_SCRIPT, 'etcd', '--name=etcd-1', '--initial-cluster=etcd-0=a,etcd-1=b,etcd-2=c'], { env });
  const lines = existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n') : [];
  return { code: result.code, out: result.stdout + result.stderr, calls: lines };
}

describe('the etcd member start script', () => {
  beforeEach(() => {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(bin, { recursive: true });
    tool('etcd', 'exit 0');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('When the member has its log, it should start from it without asking the cluster anything', async () => {
    etcdctlAnswering(LIST);
    mkdirSync(join(data, 'member', 'wal'), { recursive: true });
    const run = await startMember('existing');
    assert.deepEqual(run.calls, ['etcd --name=etcd-1 --initial-cluster=etcd-0=a,etcd-1=b,etcd-2=c --initial-cluster-state=new']);
  });

  it('When a new cluster is being created and nobody answers, it should start as a member of a new cluster', async () => {
    etcdctlAnswering(undefined);
    const run = await startMember(undefined);
    assert.equal(run.code, 0);
    assert.match(run.out, /etcd-1 has no data and no cluster answers \(Error: context deadline exceeded\): starting as a member of a new cluster/);
    assert.equal(run.calls.at(-1), 'etcd --name=etcd-1 --initial-cluster=etcd-0=a,etcd-1=b,etcd-2=c --initial-cluster-state=new');
  });

  it('When the cluster has run and nobody answers, it should fail after its tries and start nothing', async () => {
    etcdctlAnswering(undefined);
    const run = await startMember('existing');
    assert.equal(run.code, 1);
    assert.match(run.out, /it will not start a new, empty one\. Start the members that hold data, or restore from a backup/);
    assert.deepEqual(run.calls.map((c) => c.split(' ').at(-1)), ['list', 'list'], 'asked twice (JOIN_TRIES), never ran etcd');
  });

  it('When the cluster answers, it should replace its old entry and join with the membership etcd printed', async () => {
    etcdctlAnswering(LIST);
    mkdirSync(join(data, 'member', 'snap'), { recursive: true });
    const run = await startMember('existing');
    assert.equal(run.code, 0, run.out);
    assert.deepEqual(run.calls, [
      'etcdctl --endpoints=https://etcd-client.ns.svc:2379 --cacert=/ca.crt --dial-timeout=2s --command-timeout=5s member list',
      'etcdctl --endpoints=https://etcd-client.ns.svc:2379 --cacert=/ca.crt --command-timeout=10s member remove 1b',
      `etcdctl --endpoints=https://etcd-client.ns.svc:2379 --cacert=/ca.crt --command-timeout=10s member add etcd-1 --peer-urls=${PEER}`,
      `etcd --name=etcd-1 --initial-cluster=etcd-0=a,etcd-1=b,etcd-2=c --initial-cluster-state=existing --initial-cluster=etcd-0=https://etcd-0.etcd-discovery.ns.svc:2380,etcd-1=${PEER}`,
    ]);
    assert.equal(existsSync(join(data, 'member', 'snap')), false, 'the leftover of a join that never wrote a log is gone');
  });

  it('When the data belongs to another user, it should say so and keep it', { skip: process.getuid?.() !== 0 && 'needs root to make the data another user\'s' }, async () => {
    etcdctlAnswering(LIST);
    mkdirSync(join(data, 'member', 'wal'), { recursive: true, mode: 0o700 });
    chmodSync(root, 0o755);
    const run = await startMember('existing', '65534');
    assert.equal(run.code, 1);
    assert.match(run.out, new RegExp(`etcd-1 cannot use ${data} as user 65534: give the folder to that user \\(chown -R 65534 ${data}\\)`));
    assert.ok(existsSync(join(data, 'member', 'wal')), 'the data is kept');
  });
});

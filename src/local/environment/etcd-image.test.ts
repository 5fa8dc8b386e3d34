import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runProcess } from '../../testing/process.ts';
import { ETCDCTL_DEFAULTS, etcdImage } from './etcd-image.ts';

const dir = mkdtempSync(join(tmpdir(), 'hcp-etcdctl-defaults-'));
// Stand-ins for the real tools: each prints which it is, its arguments and the ETCDCTL_* variables it was given.
const fake = (name: string): string => `#!/bin/sh\necho "${name} $*"\nenv | grep '^ETCDCTL_' | sort\n`;
for (const name of ['etcdctl', 'etcdutl']) {
  writeFileSync(join(dir, name), fake(name));
  chmodSync(join(dir, name), 0o755);
}
writeFileSync(join(dir, 'wrapper'), ETCDCTL_DEFAULTS.replace('/usr/libexec/etcd/etcdctl', join(dir, 'etcdctl')));

async function wrapper(args: readonly string[], env: Record<string, string> = {}): Promise<string[]> {
  const result = await runProcess('/bin/sh', [join(dir, 'wrapper'), ...args], { env: { PATH: `${dir}:/usr/bin:/bin`, ...env } });
  assert.equal(result.code, 0, result.stderr);
  return result.stdout.trim().split('\n');
}

describe('the etcd image', () => {
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('When etcdctl is run bare in the container, it should reach the local member with the client certificate', async () => {
    assert.deepEqual(await wrapper(['endpoint', 'health', '--cluster', '-w', 'table']), [
      'etcdctl endpoint health --cluster -w table',
      'ETCDCTL_CACERT=/etc/etcd/tls/etcd-ca/ca.crt',
      'ETCDCTL_CERT=/etc/etcd/tls/client/etcd-client.crt',
      'ETCDCTL_ENDPOINTS=https://localhost:2379',
      'ETCDCTL_KEY=/etc/etcd/tls/client/etcd-client.key',
    ]);
  });

  it('When the manual passes its flags (either form), it should add no variable that repeats one', async () => {
    const flags = ['--cacert', '/a/ca.crt', '--cert=/a/c.crt', '--key', '/a/c.key', '--endpoints=localhost:2379', 'snapshot', 'save', '/var/lib/snapshot.db'];
    assert.deepEqual(await wrapper(flags, { ETCDCTL_API: '3' }), [`etcdctl ${flags.join(' ')}`, 'ETCDCTL_API=3']);
  });

  it('When a variable is set already, it should keep the user\'s value', async () => {
    assert.ok((await wrapper(['member', 'list'], { ETCDCTL_ENDPOINTS: 'https://etcd-1:2379' })).includes('ETCDCTL_ENDPOINTS=https://etcd-1:2379'));
  });

  it('When the manual asks etcdctl for a snapshot\'s status (etcd 3.5), it should be etcdutl that answers', async () => {
    assert.deepEqual(await wrapper(['-w', 'table', 'snapshot', 'status', '/var/lib/snapshot.db']), ['etcdutl -w table snapshot status /var/lib/snapshot.db']);
  });

  it('When assembled, it should carry the three tools, a shell under the names scripts call and tar for oc cp', () => {
    const spec = etcdImage('registry.k8s.io/etcd:3.6.8-0', { etcd: '/b/etcd', etcdctl: '/b/etcdctl', etcdutl: '/b/etcdutl', busybox: '/b/busybox' });
    assert.deepEqual(spec.files.map((f) => f.target).sort(), ['/bin/busybox', '/usr/bin/bash', '/usr/bin/etcdctl', '/usr/bin/etcdutl', '/usr/libexec/etcd/etcdctl', '/usr/local/bin/etcd']);
    for (const link of ['/bin/sh', '/usr/bin/env', '/usr/bin/tar', '/usr/bin/awk']) assert.equal(spec.links?.[link], '/bin/busybox', link);
  });

  it('When run with no user, it should run as root as upstream\'s image does (the pods that need etcd\'s user set it)', () => {
    const spec = etcdImage('registry.k8s.io/etcd:3.6.8-0', { etcd: '/b/etcd', etcdctl: '/b/etcdctl', etcdutl: '/b/etcdutl', busybox: '/b/busybox' });
    assert.equal(spec.user, undefined);
  });
});

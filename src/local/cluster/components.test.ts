import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiServerArgs, controllerManagerArgs, etcdArgs, type ClusterLayout } from './components.ts';

const layout: ClusterLayout = { name: 'mgmt', dir: '/c', etcdClientPort: 1, etcdPeerPort: 2, apiServerPort: 3, controllerManagerPort: 4 };

describe('component command lines', () => {
  it('When rendering kube-apiserver flags, it should authorise nodes and RBAC, take bootstrap tokens, on loopback without the endpoint reconciler', () => {
    const args = apiServerArgs(layout);
    for (const flag of ['--authorization-mode=Node,RBAC', '--enable-bootstrap-token-auth=true', '--advertise-address=127.0.0.1', '--endpoint-reconciler-type=none', '--bind-address=127.0.0.1', '--etcd-servers=http://127.0.0.1:1', '--secure-port=3', '--client-ca-file=/c/pki/client-ca.crt']) {
      assert.ok(args.includes(flag), flag);
    }
  });

  it('When rendering etcd flags, it should skip fsync and keep peer and initial-cluster consistent', () => {
    const args = etcdArgs(layout);
    assert.ok(args.includes('--unsafe-no-fsync=true'));
    assert.ok(args.includes('--initial-advertise-peer-urls=http://127.0.0.1:2'));
    assert.ok(args.includes('--initial-cluster=default=http://127.0.0.1:2'));
  });

  it('When rendering kube-controller-manager flags, it should run GC, namespace, SA, workload and CSR controllers', () => {
    const controllers = controllerManagerArgs(layout).find((a) => a.startsWith('--controllers='))?.split('=')[1]?.split(',') ?? [];
    for (const c of ['garbage-collector-controller', 'namespace-controller', 'serviceaccount-token-controller', 'deployment-controller', 'statefulset-controller', 'certificatesigningrequest-signing-controller', 'certificatesigningrequest-approving-controller']) {
      assert.ok(controllers.includes(c), c);
    }
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeDocument } from '../../../kube/client.ts';
import { createServiceAccountUser } from '../../../local/cluster/users.ts';
import { runHcp } from '../../../testing/cli.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';

const { management } = testClusters();
const kc = `--kubeconfig=${management.adminKubeconfig}`;

const namespacedKinds = [
  ['v1', 'ServiceAccount'],
  ['rbac.authorization.k8s.io/v1', 'Role'],
  ['rbac.authorization.k8s.io/v1', 'RoleBinding'],
  ['v1', 'ConfigMap'],
  ['v1', 'Service'],
  ['apps/v1', 'Deployment'],
] as const;

/** Made by kube-controller-manager in every namespace, not by install. */
const madeByTheCluster = new Set(['kube-root-ca.crt', 'default']);

/** Name → resourceVersion of every object install writes in `namespace`. */
async function installedVersions(namespace: string): Promise<Record<string, string>> {
  const entries = await Promise.all(
    namespacedKinds.map(async ([apiVersion, kind]) =>
      (await management.client.list<KubeDocument>(apiVersion, kind, { namespace }))
        .map((o) => ({ name: o.metadata?.name ?? '', version: o.metadata?.resourceVersion ?? '' }))
        .filter((o) => !madeByTheCluster.has(o.name))
        .map((o) => [`${kind}/${o.name}`, o.version] as const),
    ),
  );
  return Object.fromEntries(entries.flat());
}

async function canI(kubeconfig: string, args: readonly string[]): Promise<boolean> {
  const out = await management.runKubectl(['auth', 'can-i', ...args], { kubeconfig });
  return out.stdout.trim() === 'yes';
}

describe('hcp install', () => {
  it('When installing, it should apply every object, wait for the CRDs and the rollout, and a second run should write nothing', async () => {
    const namespace = await management.namespace('install');
    const args = ['install', kc, `--namespace=${namespace}`, '--development', '--wait-until-crds-established', '--wait-until-available'];
    const first = await runHcp(args, { realClock: true });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /applied CustomResourceDefinition hostedclusters\.hypershift\.openshift\.io/);
    assert.match(first.stdout, new RegExp(`applied Deployment ${namespace}/operator`));
    const before = await installedVersions(namespace);
    assert.deepEqual(Object.keys(before).sort(), ['ConfigMap/supported-versions', 'Deployment/operator', 'Role/hypershift-operator', 'RoleBinding/hypershift-operator', 'Service/operator', 'ServiceAccount/operator']);
    const second = await runHcp(args, { realClock: true });
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(await installedVersions(namespace), before, 'server-side apply of unchanged manifests must be a no-op');
  });

  it('When the operator runs as its service account, it should hold what it needs and nothing it does not', async () => {
    const namespace = await management.namespace('install-rbac');
    const out = await runHcp(['install', kc, `--namespace=${namespace}`, '--development', '--install-scope=resources'], { realClock: true });
    assert.equal(out.code, 0, out.stderr);
    const operator = await createServiceAccountUser(management, { namespace, name: 'operator' });
    const kubeconfig = operator.kubeconfig;
    assert.ok(await canI(kubeconfig, ['create', 'hostedcontrolplanes.hypershift.openshift.io', '-n', 'clusters-example']));
    assert.ok(await canI(kubeconfig, ['patch', 'hostedclusters.hypershift.openshift.io', '--subresource=status', '-n', 'clusters']));
    assert.ok(await canI(kubeconfig, ['create', 'statefulsets.apps', '-n', 'clusters-example']));
    assert.ok(await canI(kubeconfig, ['update', 'leases.coordination.k8s.io', '-n', namespace]));
    assert.ok(!(await canI(kubeconfig, ['update', 'leases.coordination.k8s.io', '-n', 'kube-system'])), 'leases only in its own namespace');
    assert.ok(!(await canI(kubeconfig, ['create', 'clusterroles.rbac.authorization.k8s.io'])), 'no RBAC writes');
    assert.ok(!(await canI(kubeconfig, ['delete', 'nodes'])), 'no nodes');
    assert.ok(!(await canI(kubeconfig, ['create', 'pods', '-n', 'clusters-example'])), 'pods are read-only');
  });

  it('When a flag is invalid, it should exit 1 naming it and create nothing', async () => {
    const namespace = `install-bad-${String(Date.now())}`;
    const out = await runHcp(['install', kc, `--namespace=${namespace}`, '--image-pull-policy=Sometimes'], { realClock: true });
    assert.equal(out.code, 1);
    assert.match(out.stderr, /invalid --image-pull-policy "Sometimes": want Always, Never or IfNotPresent/);
    assert.equal(await management.client.tryGet({ apiVersion: 'v1', kind: 'Namespace', name: namespace }), undefined);
  });
});

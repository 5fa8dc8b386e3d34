import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { toYamlDocuments } from '../../lib/yaml.ts';
import { assertGolden } from '../../testing/golden.ts';
import type { InstallInput } from './input.ts';
import { OPERATOR_CLUSTER_RULES } from './rbac.ts';
import { renderInstall } from './render.ts';

const input: InstallInput = {
  namespace: 'hypershift',
  image: 'quay.io/example/hcp-operator:v1',
  imagePullPolicy: 'IfNotPresent',
  replicas: 2,
  scope: 'all',
  additionalEnv: {},
  version: '0.1.0',
};

const kinds = (objects: ReadonlyArray<{ kind: string }>): string[] => objects.map((o) => o.kind);

type Deployment = { spec: { replicas: number; template: { spec: { containers: Array<{ env: Array<{ name: string; value?: string }> }> } } } };

describe('renderInstall', () => {
  it('When rendering the resources, it should match the golden file', () => {
    assertGolden(join(import.meta.dirname, 'testdata', 'resources.yaml'), toYamlDocuments(renderInstall({ ...input, scope: 'resources' })));
  });

  it('When rendering everything, it should put the three CRDs first, then the namespace before anything namespaced', () => {
    const objects = renderInstall(input);
    assert.deepEqual(kinds(objects).slice(0, 4), ['CustomResourceDefinition', 'CustomResourceDefinition', 'CustomResourceDefinition', 'Namespace']);
    assert.deepEqual(
      objects.slice(0, 3).map((o) => o.metadata.name),
      ['hostedclusters.hypershift.openshift.io', 'nodepools.hypershift.openshift.io', 'hostedcontrolplanes.hypershift.openshift.io'],
    );
  });

  it('When the scope is crds, it should render only the CRDs', () => {
    assert.deepEqual(kinds(renderInstall({ ...input, scope: 'crds' })), Array(3).fill('CustomResourceDefinition'));
  });

  it('When the namespace is not hypershift, it should place every namespaced object and binding subject there', () => {
    const objects = renderInstall({ ...input, namespace: 'hcp-system', scope: 'resources' });
    for (const o of objects) if (o.metadata.namespace !== undefined) assert.equal(o.metadata.namespace, 'hcp-system', `${o.kind}/${o.metadata.name}`);
    const subjects = objects.flatMap((o) => (o['subjects'] as Array<{ namespace: string }> | undefined) ?? []);
    assert.equal(subjects.length, 2);
    for (const s of subjects) assert.equal(s.namespace, 'hcp-system');
    const clusterScoped = objects.filter((o) => o.kind === 'ClusterRole' || o.kind === 'ClusterRoleBinding').map((o) => o.metadata.name);
    assert.deepEqual(clusterScoped, ['hypershift-operator-hcp-system', 'hypershift-operator-hcp-system'], 'a second install does not take the first one\'s binding');
  });

  it('When extra operator environment is given, it should add it after the Deployment variables, sorted by name', () => {
    const [deployment] = renderInstall({ ...input, scope: 'resources', additionalEnv: { ZED: '1', ALPHA: '2' } }).filter((o) => o.kind === 'Deployment') as unknown as Deployment[];
    assert.deepEqual(deployment?.spec.template.spec.containers[0]?.env.map((e) => e.name), ['MY_NAMESPACE', 'MY_NAME', 'NODE_OPTIONS', 'OPERATOR_IMAGE', 'ALPHA', 'ZED']);
  });

  it('When listing the operator permissions, it should grant no wildcard and no RBAC escalation', () => {
    for (const rule of OPERATOR_CLUSTER_RULES) {
      for (const value of [...rule.apiGroups, ...rule.resources, ...rule.verbs]) assert.notEqual(value, '*');
      assert.ok(!rule.verbs.some((v) => v === 'escalate' || v === 'bind' || v === 'impersonate'));
      // RBAC only as namespaced Roles (the ignition endpoint's), never cluster-wide grants.
      if (rule.apiGroups.includes('rbac.authorization.k8s.io')) assert.deepEqual([...rule.resources].sort(), ['rolebindings', 'roles']);
    }
  });

  it('When --console is given, it should add the console with no token, no binding, no traffic in from other pods and no writable place but memory', () => {
    const objects = renderInstall({ ...input, scope: 'resources', console: true });
    const consoleObjects = objects.filter((o) => o.metadata.name === 'hcp-console');
    assert.deepEqual(kinds(consoleObjects), ['ServiceAccount', 'Service', 'NetworkPolicy', 'Deployment']);
    assert.deepEqual(objects.length - consoleObjects.length, renderInstall({ ...input, scope: 'resources' }).length, 'nothing else changes');
    const subjects = objects.flatMap((o) => (o['subjects'] as Array<{ name: string }> | undefined) ?? []).map((s) => s.name);
    assert.ok(!subjects.includes('hcp-console'), 'no role is bound to the console');
    type Pod = { automountServiceAccountToken: boolean; volumes: Array<{ name: string; emptyDir?: { medium: string } }>; containers: Array<{ command: string[]; args: string[]; securityContext: { readOnlyRootFilesystem: boolean } }> };
    const pod = (consoleObjects[3] as unknown as { spec: { template: { spec: Pod } } }).spec.template.spec;
    assert.equal(pod.automountServiceAccountToken, false);
    assert.deepEqual(consoleObjects[2]?.['spec'], { podSelector: { matchLabels: { name: 'hcp-console' } }, policyTypes: ['Ingress'] }, 'no ingress rule: every pod is refused');
    assert.equal(pod.containers[0]?.securityContext.readOnlyRootFilesystem, true);
    assert.deepEqual([...(pod.containers[0]?.command ?? []), ...(pod.containers[0]?.args.slice(0, 2) ?? [])], ['hcp-operator', 'console', '--authentication-mode=token']);
    assert.equal(pod.volumes.find((v) => v.name === 'sessions')?.emptyDir?.medium, 'Memory');
    assertGolden(join(import.meta.dirname, 'testdata', 'console.yaml'), toYamlDocuments(consoleObjects));
  });
});

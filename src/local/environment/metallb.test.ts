import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeDocument } from '../../kube/client.ts';
import { metallbObjects } from './metallb.ts';

/** The shape of MetalLB's native manifest, cut down to what the transformation reads. */
const MANIFEST: KubeDocument[] = [
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'metallb-system' } },
  { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'ipaddresspools.metallb.io' } },
  { apiVersion: 'v1', kind: 'Service', metadata: { name: 'metallb-webhook-service', namespace: 'metallb-system' } },
  { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'metallb-webhook-configuration' } },
  { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'controller', namespace: 'metallb-system' }, spec: { template: { spec: { containers: [{ name: 'controller', args: ['--port=7472'] }] } } } },
  { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'speaker', namespace: 'metallb-system' } },
];

describe('MetalLB on the infrastructure cluster', () => {
  it('When the manifest is read, the CRDs should come apart, the webhook go, and the controller run without it', () => {
    const { crds, install, pool } = metallbObjects(MANIFEST);
    assert.deepEqual(crds.map((o) => o['kind']), ['CustomResourceDefinition']);
    assert.deepEqual(install.map((o) => `${String(o['kind'])}/${String((o['metadata'] as { name: string }).name)}`), ['Namespace/metallb-system', 'Deployment/controller', 'DaemonSet/speaker']);
    const controller = install[1] as unknown as { spec: { template: { spec: { containers: Array<{ args: string[] }> } } } };
    assert.deepEqual(controller.spec.template.spec.containers[0]?.args, ['--port=7472', '--webhook-mode=disabled']);
    assert.deepEqual((MANIFEST[4] as unknown as typeof controller).spec.template.spec.containers[0]?.args, ['--port=7472'], 'the manifest read is left as it was');
    assert.deepEqual(pool.map((o) => [o['kind'], (o['spec'] as Record<string, unknown>)]), [['IPAddressPool', { addresses: ['10.251.0.1-10.251.0.254'] }], ['L2Advertisement', { ipAddressPools: ['hcp-local'] }]]);
  });
});

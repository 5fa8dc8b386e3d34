import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { HostedCluster, HostedControlPlane } from '../../api/index.ts';
import { toYamlDocuments } from '../../lib/yaml.ts';
import { catalogReleaseProvider, kubernetesReleaseImage } from '../../release/catalog.ts';
import type { ReleaseInfo } from '../../release/info.ts';
import { aHostedCluster } from '../../testing/builders.ts';
import { assertGolden } from '../../testing/golden.ts';
import { renderHostedControlPlane } from '../hostedcluster/hostedcontrolplane.ts';
import { GuestIngress, renderGuestIngress } from './ingress.ts';
import { renderGuestComponents } from './render.ts';

const release = catalogReleaseProvider.lookup(kubernetesReleaseImage('1.36.3')) as ReleaseInfo;
const pem = (label: string): string => Buffer.from(`-----BEGIN ${label}-----\nnot a real ${label.toLowerCase()}\n-----END ${label}-----\n`).toString('base64');
const CERTIFICATE = { 'tls.crt': pem('CERTIFICATE'), 'tls.key': pem('PRIVATE KEY') };

function controlPlane(change: (hc: HostedCluster) => void = () => undefined): HostedControlPlane {
  const hc = aHostedCluster('example', 'clusters');
  // As discovered for a passthrough cluster, or given with --base-domain.
  hc.spec.dns = { baseDomain: 'example.com' };
  change(hc);
  return renderHostedControlPlane({ hc, infraID: 'example-sffhb' }) as unknown as HostedControlPlane;
}

interface Deployment {
  spec: { replicas: number; template: { metadata: { annotations: Record<string, string> }; spec: { containers: Array<{ args: string[] }> } } };
}
const deploymentOf = (objects: ReadonlyArray<Record<string, unknown>>): Deployment => objects.find((o) => o['kind'] === 'Deployment') as unknown as Deployment;

describe('renderGuestIngress', () => {
  it('When the release carries the ingress controller and the certificate is issued, it should match the golden file', () => {
    const objects = renderGuestIngress(controlPlane(), release.images.ingressController, CERTIFICATE);
    assertGolden(join(import.meta.dirname, 'testdata', 'guest-ingress.yaml'), toYamlDocuments(objects));
  });

  it('When it renders the router, it should serve the cluster domain under the names the passthrough and the manual read', () => {
    const objects = renderGuestIngress(controlPlane(), release.images.ingressController, CERTIFICATE);
    const service = objects.find((o) => o['kind'] === 'Service') as { metadata: { name: string; namespace: string }; spec: { type: string; ports: Array<{ name: string }> } };
    assert.deepEqual([service.metadata.namespace, service.metadata.name, service.spec.type], ['openshift-ingress', 'router-nodeport-default', 'NodePort']);
    assert.deepEqual(service.spec.ports.map((p) => p.name), ['http', 'https']);
    const args = deploymentOf(objects).spec.template.spec.containers[0]?.args ?? [];
    assert.ok(args.includes('--providers.kubernetesingress.ingressendpoint.hostname=router-default.apps.example.example.com'), args.join(' '));
    assert.ok(args.includes('--global.sendanonymoususage=false') && args.includes('--global.checknewversion=false'), 'no calls home');
  });

  it('When the certificate is renewed, the routers should roll (they read it once)', () => {
    const before = deploymentOf(renderGuestIngress(controlPlane(), release.images.ingressController, CERTIFICATE));
    const after = deploymentOf(renderGuestIngress(controlPlane(), release.images.ingressController, { ...CERTIFICATE, 'tls.crt': pem('RENEWED CERTIFICATE') }));
    assert.notEqual(before.spec.template.metadata.annotations['hypershift.openshift.io/router-config'], after.spec.template.metadata.annotations['hypershift.openshift.io/router-config']);
  });

  it('When the infrastructure is HighlyAvailable, it should run two routers', () => {
    const ha = controlPlane((hc) => (hc.spec.infrastructureAvailabilityPolicy = 'HighlyAvailable'));
    assert.equal(deploymentOf(renderGuestIngress(ha, release.images.ingressController, CERTIFICATE)).spec.replicas, 2);
  });

  it('When the release lacks the controller, the certificate is not issued or the base domain is not known yet, it should render nothing', () => {
    const undiscovered = controlPlane((hc) => (hc.spec.dns = { baseDomain: '' }));
    assert.deepEqual(renderGuestIngress(controlPlane(), undefined, CERTIFICATE), []);
    assert.deepEqual(renderGuestIngress(controlPlane(), release.images.ingressController, undefined), []);
    assert.deepEqual(renderGuestIngress(undiscovered, release.images.ingressController, CERTIFICATE), []);
  });

  it('When the guest components are rendered with the certificate, the ingress should come last (after the network it needs)', () => {
    const hcp = controlPlane();
    const objects = renderGuestComponents({ hcp, release, apiServer: { host: '192.0.2.10', port: 31234 }, ingressCertificate: CERTIFICATE });
    assert.equal((objects.at(-1)?.['metadata'] as { name: string }).name, GuestIngress.service);
  });
});

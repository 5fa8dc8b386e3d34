import type { KubeClient } from '../kube/client.ts';
import { eventually } from './eventually.ts';

/**
 * Stands in for the ignition server's publishing, which this project does not do yet: the HostedCluster gets an
 * ignition endpoint in status (written by a field manager of its own, which the operator's status writes leave alone)
 * and its control-plane namespace the ignition CA Secret, as upstream's operator provides them. Returns the endpoint.
 */
export async function publishIgnitionEndpoint(client: KubeClient, namespace: string, name: string): Promise<string> {
  const cpNamespace = `${namespace}-${name}`;
  await eventually('the control-plane namespace', async () => (await client.tryGet({ apiVersion: 'v1', kind: 'Namespace', name: cpNamespace })) !== undefined);
  const endpoint = `ignition-server-${cpNamespace}.apps.mgmt.example.com`;
  await client.apply({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', metadata: { name, namespace }, status: { ignitionEndpoint: endpoint } }, { fieldManager: 'ignition-standin', subresource: 'status' });
  await client.apply({
    apiVersion: 'v1', kind: 'Secret', metadata: { name: 'ignition-server-ca-cert', namespace: cpNamespace, labels: { 'hypershift.openshift.io/control-plane-secret': 'true' } },
    data: { 'tls.crt': Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n').toString('base64') },
  }, { fieldManager: 'ignition-standin' });
  return endpoint;
}

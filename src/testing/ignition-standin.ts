import type { KubeClient } from '../kube/client.ts';
import { eventually } from './eventually.ts';

/**
 * Stands in for the ignition endpoint's publication where control planes never run (tests, benchmarks): the operator
 * makes the endpoint's CA (`ignition-server-ca-cert`) but renders the endpoint itself only when it knows its own image
 * and nothing would run its pod here, so the HostedCluster gets an endpoint in status from this stand-in (written by a
 * field manager of its own, which the operator's status writes leave alone). Waits for the operator's CA, so a
 * NodePool never sees an endpoint without it. Returns the endpoint.
 */
export async function publishIgnitionEndpoint(client: KubeClient, namespace: string, name: string): Promise<string> {
  const cpNamespace = `${namespace}-${name}`;
  await eventually('the ignition CA of the control plane', async () => (await client.tryGet({ apiVersion: 'v1', kind: 'Secret', namespace: cpNamespace, name: 'ignition-server-ca-cert' })) !== undefined, 120_000, 500);
  const endpoint = `ignition-server-${cpNamespace}.apps.mgmt.example.com`;
  await client.apply({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', metadata: { name, namespace }, status: { ignitionEndpoint: endpoint } }, { fieldManager: 'ignition-standin', subresource: 'status' });
  return endpoint;
}

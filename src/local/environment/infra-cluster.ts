/**
 * The infrastructure cluster's side of "external infrastructure": the namespace the worker VMs go to and a service
 * account holding exactly the documented Role, with a kubeconfig for `--infra-kubeconfig-file`. The kubeconfig names
 * the API server by its bridge address, which the operator's pods on the management cluster reach.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeClient, KubeObject } from '../../kube/client.ts';
import { externalInfraAccessObjects, tokenSecretName } from '../../render/infra/external-access.ts';
import { waitFor } from '../cluster/http.ts';
import { writeKubeconfig } from '../cluster/files.ts';
import { infraLayout, statePaths, type EnvironmentLayout } from './layout.ts';
import { apiServerUrl } from './pki.ts';

/** The infrastructure cluster's namespace for worker VMs (`--infra-namespace`). */
export const INFRA_NAMESPACE = 'hcp-infra';

/** What `--infra-kubeconfig-file` and `--infra-namespace` take to put a hosted cluster's VMs on the infrastructure cluster. */
export interface InfraAccess {
  readonly kubeconfig: string;
  readonly namespace: string;
}

/** Where the limited user's kubeconfig is written. */
export const infraUserKubeconfig = (environment: EnvironmentLayout): string => join(infraLayout(environment).stateDir, 'external-infra.kubeconfig');

/** Whether the environment was brought up with an infrastructure cluster. */
export const hasInfraCluster = (environment: EnvironmentLayout): boolean => existsSync(statePaths(infraLayout(environment)).nodeCount);

interface TokenSecret extends KubeObject {
  data?: { token?: string };
}

/**
 * The cluster's network configuration as OpenShift publishes it (`networks.config.openshift.io/cluster`): its pod and
 * Service ranges, which the operator reads to keep the VMs' pods out of them (the virt-launcher NetworkPolicy).
 */
export function networkConfig(infra: EnvironmentLayout): KubeObject & Record<string, unknown> {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'Network',
    metadata: { name: 'cluster' },
    spec: { clusterNetwork: [{ cidr: infra.podCidr, hostPrefix: 24 }], serviceNetwork: [infra.serviceCidr], networkType: 'hcp-local-bridge' },
  };
}

/** Publishes the infrastructure cluster's network configuration (its CRD is installed with KubeVirt's). */
export async function publishNetworkConfig(environment: EnvironmentLayout, admin: KubeClient): Promise<void> {
  await admin.apply(networkConfig(infraLayout(environment)), { fieldManager: 'hcp-local', force: true });
}

/** Grants the documented access on the infrastructure cluster (`admin` is its administrator) and writes the user's kubeconfig. */
export async function grantExternalInfraAccess(environment: EnvironmentLayout, admin: KubeClient): Promise<InfraAccess> {
  const infra = infraLayout(environment);
  // The cluster publishes its network configuration (publishNetworkConfig), so the page's reader is granted too.
  const access = { namespace: INFRA_NAMESPACE, networkReader: true };
  for (const object of externalInfraAccessObjects(access)) await admin.apply(object, { fieldManager: 'hcp-local', force: true });
  let token = '';
  // The controller manager's token controller fills the Secret in.
  await waitFor(`the token of ${INFRA_NAMESPACE}/${tokenSecretName(access)}`, async () => {
    const secret = await admin.get<TokenSecret>({ apiVersion: 'v1', kind: 'Secret', namespace: INFRA_NAMESPACE, name: tokenSecretName(access) });
    token = Buffer.from(secret.data?.token ?? '', 'base64').toString('utf8');
    return token !== '';
  }, { timeoutMs: 60_000, intervalMs: 250 });
  const caPem = readFileSync(join(statePaths(infra).pki, 'server-ca.crt'), 'utf8');
  const kubeconfig = infraUserKubeconfig(environment);
  writeKubeconfig({ path: kubeconfig, name: infra.clusterName, server: apiServerUrl(infra), caPem, user: { token }, namespace: INFRA_NAMESPACE });
  return { kubeconfig, namespace: INFRA_NAMESPACE };
}

import type { NodePool } from '../../../api/index.ts';
import type { KubeClient, KubeDocument } from '../../../kube/client.ts';
import { untrustedClient } from '../../../kube/untrusted-kubeconfig.ts';
import { fromBase64 } from '../../../lib/base64.ts';
import { collectKinds, collectSecretNames, listedOf, type DumpSource } from './collect-objects.ts';
import { collectPodLogs } from './collect-logs.ts';
import { isMachinePod, NO_MACHINES, type MachineFacts, type PodState } from './facts.ts';
import { DATA_VOLUME, MANAGEMENT_NAMESPACED, POD, VIRTUAL_MACHINE } from './kinds.ts';
import { externalInfraFolder } from './layout.ts';
import { checkAnswers } from './reach.ts';
import type { DumpWriter } from './writer.ts';

/** Where a NodePool's VMs live when not on the management cluster: the kubeconfig Secret (beside the NodePool) and namespace its status names. */
export interface ExternalInfra {
  readonly secret: { readonly name: string; readonly key: string };
  readonly namespace: string;
}

/** The external infrastructure a NodePool reports in `status.platform.kubeVirt.credentials` (upstream's signal), if any. */
export function externalInfraOf(np: NodePool): ExternalInfra | undefined {
  const credentials = np.status?.platform?.kubeVirt?.credentials;
  const secret = credentials?.infraKubeConfigSecret;
  if (credentials === undefined || secret === undefined) return undefined;
  return { secret: { name: secret.name, key: secret.key === '' ? 'kubeconfig' : secret.key }, namespace: credentials.infraNamespace };
}

/** The infrastructure kubeconfig from the Secret the NodePool names (read, never written). */
async function infraKubeconfig(management: KubeClient, np: NodePool, infra: ExternalInfra): Promise<string> {
  const secret = await management.get<KubeDocument & { data?: Record<string, string> }>({ apiVersion: 'v1', kind: 'Secret', name: infra.secret.name, namespace: np.metadata.namespace });
  const value = secret.data?.[infra.secret.key];
  if (value === undefined) throw new Error(`Secret ${np.metadata.namespace ?? ''}/${infra.secret.name} has no key ${infra.secret.key}`);
  return fromBase64(value);
}

/** Lists the infrastructure namespace as the management namespaces are, with its pods' logs; its machines come back. */
async function collectInfra(source: DumpSource, namespace: string): Promise<MachineFacts> {
  const listed = await collectKinds(source, MANAGEMENT_NAMESPACED, namespace);
  await collectSecretNames(source, namespace);
  const pods = listedOf<PodState>(listed, POD);
  await collectPodLogs(source, pods);
  return { virtualMachines: listedOf(listed, VIRTUAL_MACHINE), dataVolumes: listedOf(listed, DATA_VOLUME), pods: pods.filter(isMachinePod) };
}

/**
 * Dumps a NodePool's external infrastructure namespace under `external-infra-clusters/nodepool-<uid>/` with the
 * credentials the NodePool uses (a Role limited to that namespace, so refusals are expected and recorded once).
 * Returns the machines found there, unfiltered: the namespace may be shared with other clusters.
 */
export async function dumpExternalInfra(management: KubeClient, np: NodePool, infra: ExternalInfra, out: DumpWriter): Promise<MachineFacts> {
  const infraOut = out.under(externalInfraFolder(np.metadata.uid ?? ''), 'infrastructure');
  let client: KubeClient;
  try {
    client = untrustedClient(await infraKubeconfig(management, np, infra));
  } catch (error) {
    infraOut.problem(`read the infrastructure kubeconfig of NodePool ${np.metadata.name ?? ''}`, error);
    return NO_MACHINES;
  }
  try {
    await checkAnswers(client);
  } catch (error) {
    client.close();
    infraOut.problem(`reach the infrastructure cluster at ${client.rest.serverUrl}`, error);
    return NO_MACHINES;
  }
  try {
    return await collectInfra({ client, out: infraOut }, infra.namespace);
  } finally {
    client.close();
  }
}

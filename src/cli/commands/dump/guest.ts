import type { HostedCluster } from '../../../api/index.ts';
import type { KubeClient } from '../../../kube/client.ts';
import { untrustedClient } from '../../../kube/untrusted-kubeconfig.ts';
import { reasonOf } from '../../../runtime/errors.ts';
import { adminKubeconfig } from '../create/kubeconfig-run.ts';
import { collectKinds, collectSecretNames, listedOf, type DumpSource } from './collect-objects.ts';
import { collectPodLogs } from './collect-logs.ts';
import type { GuestFacts, NodeState, PodState } from './facts.ts';
import { GUEST_CLUSTER_SCOPED, GUEST_LOG_NAMESPACES, GUEST_NAMESPACED, NODE, POD } from './kinds.ts';
import { guestFolder } from './layout.ts';
import { checkAnswers } from './reach.ts';
import type { DumpWriter } from './writer.ts';

/** The hosted cluster could not be dumped: recorded as a collection problem (`what` failed) and told in the summary (`why`). */
function unreachable(out: DumpWriter, failed: { what: string; why: string }, error: unknown): GuestFacts {
  out.problem(failed.what, error);
  return { state: 'unreachable', reason: `${failed.why}: ${reasonOf(error)}` };
}

/** A client of the hosted cluster from the admin kubeconfig the HostedCluster publishes (as `hcp create kubeconfig` prints it). */
async function guestClient(management: KubeClient, hc: HostedCluster): Promise<KubeClient> {
  return untrustedClient(await adminKubeconfig(management, hc));
}

/** Everything of the hosted cluster: cluster-scoped kinds, namespaced kinds in every namespace, Secret names, guest components' logs. */
async function collectGuest(source: DumpSource): Promise<NodeState[]> {
  const clusterScoped = await collectKinds(source, GUEST_CLUSTER_SCOPED, undefined);
  const namespaced = await collectKinds(source, GUEST_NAMESPACED, undefined);
  await collectSecretNames(source, undefined);
  const pods = listedOf<PodState>(namespaced, POD).filter((p) => GUEST_LOG_NAMESPACES.includes(p.metadata?.namespace ?? ''));
  await collectPodLogs(source, pods);
  return listedOf<NodeState>(clusterScoped, NODE);
}

/**
 * Dumps the hosted cluster under `hostedcluster-<name>/`, through the admin kubeconfig its HostedCluster publishes
 * (what a user of the management cluster can reach). When it has none, or its API server does not answer, that is
 * recorded and reported, and nothing else is tried.
 */
export async function dumpGuest(management: KubeClient, hc: HostedCluster, out: DumpWriter): Promise<GuestFacts> {
  const guestOut = out.under(guestFolder(hc.metadata.name ?? ''), 'guest');
  let client: KubeClient;
  try {
    client = await guestClient(management, hc);
  } catch (error) {
    return unreachable(guestOut, { what: 'read the admin kubeconfig of the hosted cluster', why: 'its admin kubeconfig could not be read' }, error);
  }
  try {
    await checkAnswers(client);
  } catch (error) {
    client.close();
    const server = client.rest.serverUrl;
    return unreachable(guestOut, { what: `reach the hosted API server at ${server}`, why: `its API server at ${server} did not answer` }, error);
  }
  try {
    return { state: 'reached', nodes: await collectGuest({ client, out: guestOut }) };
  } finally {
    client.close();
  }
}

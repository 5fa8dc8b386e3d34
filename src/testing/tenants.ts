/**
 * Tenants of the local environment's management cluster, as `docs/install.md` tells a platform admin to make them:
 * a namespace each, and in it the `hcp-tenant` ClusterRole through a RoleBinding; each tenant a service account whose
 * token is all it has. What a tenant runs (`hcp`, `kubectl`) goes through its own kubeconfig.
 */
import { join } from 'node:path';
import { KubeClient } from '../kube/client.ts';
import type { ClusterAccess } from '../local/cluster/access.ts';
import { createServiceAccountUser } from '../local/cluster/users.ts';
import type { EnvironmentLayout } from '../local/environment/layout.ts';
import { localClusterFlags } from '../local/environment/cluster-flags.ts';
import { tenantClusterRole, tenantRoleBinding } from '../render/install/tenant-rbac.ts';
import { runHcpBinary } from './artifacts.ts';
import type { ProcessResult } from './process.ts';

/** A tenant: who it is, where it may work, and its own client and kubeconfig. */
export interface Tenant {
  readonly user: string;
  /** Its namespaces: the first is its home, where its service account lives. */
  readonly namespaces: readonly string[];
  readonly kubeconfig: string;
  readonly client: KubeClient;
  /** Runs the shipped `hcp` as this tenant. */
  hcp(args: readonly string[], timeoutMs?: number): Promise<ProcessResult>;
}

/** What the tenants are made in. */
export interface TenantEnvironment {
  readonly management: KubeClient;
  readonly stateDir: string;
  readonly layout: EnvironmentLayout;
}

/** The management cluster as `createServiceAccountUser` needs it. */
function managementAccess(env: TenantEnvironment): ClusterAccess {
  return { name: 'hcp-local', dir: env.stateDir, server: env.management.rest.serverUrl.replace(/\/$/, ''), adminKubeconfig: join(env.stateDir, 'kubeconfig'), kubectl: 'kubectl' };
}

/** Makes a tenant of `namespaces` (created when missing): the first holds its service account `name`. */
export async function makeTenant(env: TenantEnvironment, name: string, namespaces: readonly string[]): Promise<Tenant> {
  const [home = ''] = namespaces;
  await env.management.apply(tenantClusterRole(), { fieldManager: 'e2e-admin' });
  const user = await createServiceAccountUser(managementAccess(env), { namespace: home, name });
  for (const namespace of namespaces) {
    if ((await env.management.tryGet({ apiVersion: 'v1', kind: 'Namespace', name: namespace })) === undefined) await env.management.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    await env.management.apply(tenantRoleBinding(namespace, { kind: 'ServiceAccount', name, namespace: home }), { fieldManager: 'e2e-admin' });
  }
  return {
    user: user.userName,
    namespaces,
    kubeconfig: user.kubeconfig,
    client: KubeClient.fromKubeconfigFile(user.kubeconfig),
    hcp: (args, timeoutMs = 5 * 60_000) => runHcpBinary([...args, `--kubeconfig=${user.kubeconfig}`], { timeoutMs }),
  };
}

/** The node address NodePort services are published at: what an admin tells tenants, who may not list Nodes. */
export async function publishedAddress(management: KubeClient): Promise<string> {
  const [node] = await management.list<{ apiVersion: string; kind: string; status?: { addresses?: Array<{ type: string; address: string }> } }>('v1', 'Node');
  return node?.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '';
}

/** `hcp create cluster kubevirt` flags for a SingleReplica cluster of the environment made by a tenant. */
export function tenantClusterFlags(env: TenantEnvironment, address: string, o: { name: string; namespace: string; workers?: number }): string[] {
  return [`--name=${o.name}`, `--namespace=${o.namespace}`, '--control-plane-availability-policy=SingleReplica', ...localClusterFlags(env.layout, o.workers ?? 0), `--api-server-address=${address}`];
}

import type { KubeClient } from './client.ts';
import { isForbidden } from './errors.ts';

/** Why an external infrastructure cluster cannot host a cluster's VMs. */
export type InfraAccessProblem =
  | { readonly kind: 'unreachable'; readonly reason: string }
  | { readonly kind: 'namespace-missing' }
  | { readonly kind: 'forbidden' };

interface AccessReview {
  status?: { allowed?: boolean };
}

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Checks that an external infrastructure cluster can host VMs: it answers, the namespace exists (a user limited to
 * one namespace may not read Namespaces; the access review then decides), and the user may create VirtualMachines
 * there (SelfSubjectAccessReview). Shared by `hcp create cluster` and the operator.
 */
export async function checkInfraAccess(client: KubeClient, namespace: string): Promise<InfraAccessProblem | undefined> {
  try {
    await client.rest.call({ method: 'GET', path: '/version' });
  } catch (error) {
    return { kind: 'unreachable', reason: reasonOf(error) };
  }
  const ns = await client.tryGet({ apiVersion: 'v1', kind: 'Namespace', name: namespace }).catch((e: unknown) => {
    if (isForbidden(e)) return {};
    throw e;
  });
  if (ns === undefined) return { kind: 'namespace-missing' };
  const review = await client.rest.call<AccessReview>({
    method: 'POST',
    path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { group: 'kubevirt.io', resource: 'virtualmachines', verb: 'create', namespace } } },
  });
  return review.status?.allowed === true ? undefined : { kind: 'forbidden' };
}

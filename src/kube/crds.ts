import type { KubeClient, KubeObject } from './client.ts';

interface CrdStatus {
  status?: { conditions?: Array<{ type: string; status: string; message?: string }> };
}

const established = (crd: CrdStatus): boolean =>
  ['Established', 'NamesAccepted'].every((t) => crd.status?.conditions?.some((c) => c.type === t && c.status === 'True') === true);

/**
 * Installs CRDs with server-side apply and waits until every one is Established (served), as envtest does.
 * Throws with the server's message if a CRD is rejected or does not become Established in time.
 */
export async function installCrds(client: KubeClient, crds: readonly KubeObject[], timeoutMs = 60_000): Promise<void> {
  for (const crd of crds) await client.apply(crd);
  const deadline = Date.now() + timeoutMs;
  for (const crd of crds) {
    const name = String((crd['metadata'] as { name: string }).name);
    for (;;) {
      const current = await client.get<KubeObject & CrdStatus>({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name });
      if (established(current)) break;
      if (Date.now() > deadline) throw new Error(`CRD ${name} was not Established after ${timeoutMs / 1000}s: ${JSON.stringify(current.status?.conditions ?? [])}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

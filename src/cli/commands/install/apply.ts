import type { KubeClient, KubeObject } from '../../../kube/client.ts';
import type { KubeManifest } from '../../../api/manifest.ts';
import { OPERATOR_NAME } from '../../../render/install/input.ts';
import type { CommandContext } from '../../framework/command.ts';
import { UserError } from '../../framework/errors.ts';
import { CLI_FIELD_MANAGER } from '../create/cluster/apply.ts';
import { withManagementCluster } from '../management.ts';

/** Options of {@link applyInstall}. */
export interface ApplyInstallOptions {
  readonly kubeconfig: string;
  readonly waitForCrds: boolean;
  readonly waitForOperator: boolean;
  readonly namespace: string;
}

const WAIT_LIMIT_MS = 10 * 60_000;
const POLL_MS = 1_000;

interface Condition {
  type: string;
  status: string;
  message?: string;
}
interface Watched extends KubeObject {
  spec?: { replicas?: number };
  status?: { conditions?: Condition[]; updatedReplicas?: number; availableReplicas?: number; observedGeneration?: number };
  metadata: KubeObject['metadata'] & { generation?: number };
}

const isTrue = (o: Watched | undefined, type: string): boolean => o?.status?.conditions?.some((c) => c.type === type && c.status === 'True') === true;

async function waitUntil(ctx: CommandContext, what: string, done: () => Promise<boolean>): Promise<void> {
  const deadline = ctx.now().getTime() + WAIT_LIMIT_MS;
  while (!(await done())) {
    if (ctx.now().getTime() > deadline) throw new UserError(`timed out after ${String(WAIT_LIMIT_MS / 60_000)}m waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function crdsEstablished(client: KubeClient, crds: readonly KubeManifest[]): Promise<boolean> {
  const current = await Promise.all(crds.map((c) => client.tryGet<Watched>({ apiVersion: c.apiVersion, kind: c.kind, name: c.metadata.name })));
  return current.every((c) => isTrue(c, 'Established'));
}

/** Rolled out: the controller saw the latest spec, every replica is updated, and the Deployment reports Available. */
async function operatorRolledOut(client: KubeClient, namespace: string): Promise<boolean> {
  const d = await client.tryGet<Watched>({ apiVersion: 'apps/v1', kind: 'Deployment', name: OPERATOR_NAME, namespace });
  if (d === undefined || d.status?.observedGeneration !== d.metadata.generation) return false;
  return (d.status?.updatedReplicas ?? 0) >= (d.spec?.replicas ?? 1) && isTrue(d, 'Available');
}

async function applyAll(client: KubeClient, ctx: CommandContext, objects: readonly KubeManifest[]): Promise<void> {
  for (const object of objects) {
    await client.apply(object, { fieldManager: CLI_FIELD_MANAGER, force: true });
    const where = object.metadata.namespace === undefined ? '' : `${object.metadata.namespace}/`;
    ctx.stdout(`applied ${object.kind} ${where}${object.metadata.name}\n`);
  }
}

/**
 * Applies the install manifests with server-side apply: CRDs first (optionally waiting until they are established),
 * then the rest in order, then optionally waits until the operator Deployment has rolled out. Every wait is bounded.
 */
export async function applyInstall(objects: readonly KubeManifest[], ctx: CommandContext, options: ApplyInstallOptions): Promise<void> {
  const crds = objects.filter((o) => o.kind === 'CustomResourceDefinition');
  const rest = objects.filter((o) => o.kind !== 'CustomResourceDefinition');
  await withManagementCluster(options.kubeconfig, ctx, 'failed to install', async (client) => {
    await applyAll(client, ctx, crds);
    if (options.waitForCrds && crds.length > 0) await waitUntil(ctx, 'the CRDs to be established', () => crdsEstablished(client, crds));
    await applyAll(client, ctx, rest);
    if (options.waitForOperator && rest.some((o) => o.kind === 'Deployment')) {
      ctx.stdout(`waiting for deployment ${options.namespace}/${OPERATOR_NAME} to roll out\n`);
      await waitUntil(ctx, `deployment ${options.namespace}/${OPERATOR_NAME} to roll out`, () => operatorRolledOut(client, options.namespace));
    }
  });
}

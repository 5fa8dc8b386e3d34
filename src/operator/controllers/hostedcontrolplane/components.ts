import { createHash } from 'node:crypto';
import type { KubeAPIServerSecrets } from '../../../controlplane/kube-apiserver/render.ts';
import { COMPONENTS, DEFAULT_SECURITY_CONTEXT_UID, renderControlPlane, type ComponentName } from '../../../controlplane/render.ts';
import { ControlPlaneNames } from '../../../controlplane/names.ts';
import { etcdBootstrapped as etcdBootstrappedOf, restoreSnapshotURL } from '../../../controlplane/etcd/render.ts';
import { PkiSecret } from '../../../controlplane/pki/plan.ts';
import { INFRA_CREDENTIALS_SECRET } from '../../../controlplane/common/infra.ts';
import type { KubeObject } from '../../../kube/client.ts';
import { UnservedKindError } from '../../../kube/errors.ts';
import { HostedClusterConditionReason as Reason } from '../../../api/v1beta1/conditions.ts';
import { TerminalError } from '../../../runtime/errors.ts';
import { joinHostPort } from '../../../lib/host-port.ts';
import { toYaml } from '../../../lib/yaml.ts';
import { OPERATOR_FIELD_MANAGER } from '../../../render/hostedcluster/names.ts';
import type { IgnitionServerInput } from '../../../controlplane/ignition-server/render.ts';
import { publishedEndpoint } from './endpoint.ts';
import { liveComponent, planRollout, templateImages, type LiveComponent } from './rollout.ts';
import { inNamespace, type Scope } from './scope.ts';

/** The Secrets (by name) each component mounts; their data goes into its config hash. */
const INPUTS: Readonly<Record<ComponentName, readonly string[]>> = {
  etcd: [PkiSecret.etcdServer, PkiSecret.etcdPeer],
  'kube-apiserver': [PkiSecret.rootCA, PkiSecret.kasServer, PkiSecret.etcdClient, PkiSecret.aggregatorClient, PkiSecret.serviceAccountKey, PkiSecret.konnectivityServer, PkiSecret.kasKubeletClient],
  'kube-controller-manager': [ControlPlaneNames.kcmKubeconfig, PkiSecret.rootCA, PkiSecret.serviceAccountKey, PkiSecret.kcmServer],
  'kube-scheduler': [ControlPlaneNames.schedulerKubeconfig, PkiSecret.schedulerServer],
  'kubevirt-cloud-controller-manager': [ControlPlaneNames.serviceNetworkAdminKubeconfig, INFRA_CREDENTIALS_SECRET],
  'kubevirt-csi-controller': [ControlPlaneNames.csiControllerKubeconfig, INFRA_CREDENTIALS_SECRET],
  'ignition-server': [PkiSecret.ignitionServer],
};

/** A mounted Secret's data: the PKI phase's (issued this reconcile), else the cached copy (the infra credentials). */
const mountedData = (scope: Scope, secret: string): unknown => scope.pki.get(secret) ?? scope.deps.secret(inNamespace(scope, secret))?.data ?? {};

/** Per component, a short hash of everything it mounts (the encryption key and kubeadmin token count for the API server). */
export function configHashes(scope: Scope, secrets: KubeAPIServerSecrets): Record<ComponentName, string> {
  const hash = (component: ComponentName): string => {
    const h = createHash('sha256');
    for (const secret of INPUTS[component]) h.update(toYaml(mountedData(scope, secret)));
    if (component === 'kube-apiserver') h.update(`${secrets.encryptionKey}\n${secrets.kubeadminPassword ?? ''}`);
    return h.digest('hex').slice(0, 16);
  };
  return Object.fromEntries(COMPONENTS.map((c) => [c, hash(c)])) as Record<ComponentName, string>;
}

/** The ignition endpoint's input, once the operator knows its image and the API server is published. */
function ignitionServerInput(scope: Scope): IgnitionServerInput | undefined {
  const image = scope.deps.proberImage;
  const endpoint = publishedEndpoint(scope);
  if (image === undefined || endpoint === undefined) return undefined;
  return { image, apiServerURL: `https://${joinHostPort(endpoint.host, endpoint.port)}` };
}

/**
 * Whether the cache holds a rendered object of a kind the controller watches (workloads and Services); objects of
 * other kinds count as present. A watched object deleted behind the operator's back is applied again.
 */
function cachedCopyExists(scope: Scope, object: Record<string, unknown>): boolean {
  const key = inNamespace(scope, nameOf(object));
  if (object['kind'] === 'Deployment') return scope.deps.deployment(key) !== undefined;
  if (object['kind'] === 'StatefulSet') return scope.deps.statefulSet(key) !== undefined;
  if (object['kind'] === 'Service') return scope.deps.service(key) !== undefined;
  return true;
}

/** Applies one object; a Route on a cluster without Routes is a configuration the user must change. */
async function applyOne(scope: Scope, object: KubeObject): Promise<void> {
  try {
    await scope.deps.client.apply(object, { fieldManager: OPERATOR_FIELD_MANAGER });
  } catch (error) {
    if (!(error instanceof UnservedKindError) || object.kind !== 'Route') throw error;
    const message = `service ${String(object.metadata?.name)} is published with the Route strategy, but this management cluster does not serve route.openshift.io/v1 Routes: publish it with LoadBalancer or NodePort`;
    throw new TerminalError(Reason.InsufficientClusterCapabilities.value, message);
  }
}

/** No member may start before the snapshot is in: without the image that fetches it, nothing is applied. */
function refuseRestoreWithoutImage(scope: Scope): void {
  if (restoreSnapshotURL(scope.hcp) === undefined || scope.deps.proberImage !== undefined) return;
  throw new TerminalError(Reason.InvalidConfiguration.value, 'spec.etcd.managed.storage.restoreSnapshotURL is set, and the operator does not know its own image (OPERATOR_IMAGE), which fetches the snapshot: install the operator with hcp install');
}

/**
 * Applies every component object by server-side apply, unless the rendered set equals this operator's last
 * successful apply for this control plane (then nothing is sent).
 */
export async function applyComponents(scope: Scope, secrets: KubeAPIServerSecrets): Promise<void> {
  const release = scope.release;
  if (release === undefined) return;
  refuseRestoreWithoutImage(scope);
  const defaultSecurityContextUid = (await scope.deps.assignsPodUsers()) ? undefined : DEFAULT_SECURITY_CONTEXT_UID;
  const ignitionServer = ignitionServerInput(scope);
  const etcdBootstrapped = etcdBootstrappedOf(scope.hcp, scope.deps.statefulSet(inNamespace(scope, ControlPlaneNames.etcd)));
  const objects = renderControlPlane({ hcp: scope.hcp, release, configHashes: configHashes(scope, secrets), ...secrets, defaultSecurityContextUid, availabilityProberImage: scope.deps.proberImage, ignitionServer, etcdBootstrapped });
  const key = scope.hcp.metadata.uid ?? '';
  const fingerprint = createHash('sha256').update(toYaml(objects)).digest('hex');
  const before = planRollout(renderedImages(objects), (component) => liveOf(scope, component));
  // A workload deleted behind the operator's back must come back even when nothing else changed.
  const present = objects.every((object) => cachedCopyExists(scope, object));
  if (present && before.held.size === 0 && scope.deps.lastApplied.get(key) === fingerprint) {
    scope.rollout = before;
    return;
  }
  for (const object of objects) {
    if (!isHeld(object, before.held)) await applyOne(scope, object as unknown as KubeObject);
  }
  scope.rollout = before;
  // A rollout under way applies again on each reconcile until nothing is held.
  if (before.held.size === 0) scope.deps.lastApplied.set(key, fingerprint);
  else scope.deps.lastApplied.delete(key);
}

/** The component whose workload (Deployment or StatefulSet, named after it) an object is; undefined for other objects. */
function componentOf(object: Record<string, unknown>): ComponentName | undefined {
  const name = nameOf(object);
  const workload = object['kind'] === 'Deployment' || object['kind'] === 'StatefulSet';
  return workload && (COMPONENTS as readonly string[]).includes(name) ? (name as ComponentName) : undefined;
}

/** Each rendered component's pod-template images and release, by component. */
function renderedImages(objects: ReadonlyArray<Record<string, unknown>>): Map<ComponentName, readonly string[]> {
  return new Map(objects.flatMap((o) => {
    const component = componentOf(o);
    return component === undefined ? [] : [[component, templateImages(o)] as const];
  }));
}

const nameOf = (object: Record<string, unknown>): string => String((object['metadata'] as { name?: string } | undefined)?.name ?? '');

/** A component's workload as it runs, from the cache (etcd is the StatefulSet). */
function liveOf(scope: Scope, component: ComponentName): LiveComponent | undefined {
  const kind = component === ControlPlaneNames.etcd ? 'StatefulSet' : 'Deployment';
  const workload = kind === 'StatefulSet' ? scope.deps.statefulSet(inNamespace(scope, component)) : scope.deps.deployment(inNamespace(scope, component));
  return workload === undefined ? undefined : liveComponent(kind, workload);
}

/** Whether an object is the workload of a component the rollout holds on its previous release. */
const isHeld = (object: Record<string, unknown>, held: ReadonlySet<ComponentName>): boolean => {
  const component = componentOf(object);
  return component !== undefined && held.has(component);
};

import type { HostedControlPlane } from '../api/index.ts';
import type { ReleaseInfo } from '../release/info.ts';
import { renderEtcd } from './etcd/render.ts';
import { renderKubeAPIServer } from './kube-apiserver/render.ts';
import { renderKubeControllerManager } from './kube-controller-manager/render.ts';
import { renderKubeScheduler } from './kube-scheduler/render.ts';
import { renderIgnitionServer, type IgnitionServerInput } from './ignition-server/render.ts';
import { renderKubevirtCloudControllerManager } from './kubevirt-cloud-controller-manager/render.ts';
import { renderKubevirtCSIController } from './kubevirt-csi-controller/render.ts';
import { withAvailabilityProber, withDefaultSecurityContext } from './common/defaults.ts';
import { ControlPlaneNames } from './names.ts';

/**
 * The components, in the order they come up: etcd first, then the API server, then what talks to it (the KubeVirt
 * platform's cloud provider and CSI controller among them); the ignition endpoint last (rendered only once its input
 * is known, see {@link ControlPlaneInput.ignitionServer}).
 */
export const COMPONENTS = [
  ControlPlaneNames.etcd,
  ControlPlaneNames.kubeAPIServer,
  ControlPlaneNames.kubeControllerManager,
  ControlPlaneNames.kubeScheduler,
  ControlPlaneNames.kubevirtCloudControllerManager,
  ControlPlaneNames.kubevirtCSIController,
  ControlPlaneNames.ignitionServer,
] as const;

/** A component's name. */
export type ComponentName = (typeof COMPONENTS)[number];

/** What the control-plane renderer needs beyond the HostedControlPlane; worked out by the operator. */
export interface ControlPlaneInput {
  readonly hcp: HostedControlPlane;
  readonly release: ReleaseInfo;
  /** Per component, a hash of the Secrets it mounts: a changed certificate or key rolls exactly its consumers. */
  readonly configHashes: Readonly<Record<ComponentName, string>>;
  /** The AES-CBC key (base64) that encrypts Secrets at rest. */
  readonly encryptionKey: string;
  /** The kubeadmin password while the cluster has a kubeadmin user (see `kube-apiserver/kubeadmin.ts`). */
  readonly kubeadminPassword?: string | undefined;
  /**
   * The user the pods run as, on management clusters that do not assign one (without OpenShift's
   * SecurityContextConstraints nothing does, and the containers' `runAsNonRoot` refuses the root user of upstream's
   * images); absent where the platform assigns it.
   */
  readonly defaultSecurityContextUid?: number | undefined;
  /**
   * The image of the availability prober (the operator's own): components that exit when the hosted API server does
   * not answer yet wait for it in an init container instead; absent, they start at once.
   */
  readonly availabilityProberImage?: string | undefined;
  /**
   * The ignition endpoint, rendered once the operator knows its own image and the API server's published endpoint
   * (machines are told where the API server is); absent until then.
   */
  readonly ignitionServer?: IgnitionServerInput | undefined;
  /**
   * Whether etcd has had quorum once (or the control plane has run): its members may no longer bootstrap a new
   * cluster (`etcd/member-start.ts`). Sticky: the etcd StatefulSet carries it as an annotation.
   */
  readonly etcdBootstrapped?: boolean;
}

export { DEFAULT_SECURITY_CONTEXT_UID } from './common/defaults.ts';

/** Every object of the control plane's components (Secrets of the PKI come from the operator's PKI phase). */
export function renderControlPlane(input: ControlPlaneInput): Array<Record<string, unknown>> {
  const { hcp, release, configHashes } = input;
  const objects = [
    ...renderEtcd(hcp, release, configHashes.etcd, { bootstrapped: input.etcdBootstrapped === true, operatorImage: input.availabilityProberImage }),
    ...renderKubeAPIServer(hcp, release, configHashes['kube-apiserver'], { encryptionKey: input.encryptionKey, kubeadminPassword: input.kubeadminPassword }),
    ...renderKubeControllerManager(hcp, release, configHashes['kube-controller-manager']),
    ...renderKubeScheduler(hcp, release, configHashes['kube-scheduler']),
    ...renderKubevirtCloudControllerManager(hcp, release, configHashes['kubevirt-cloud-controller-manager']),
    ...renderKubevirtCSIController(hcp, release, configHashes['kubevirt-csi-controller']),
    ...(input.ignitionServer === undefined ? [] : renderIgnitionServer(hcp, release, configHashes['ignition-server'], input.ignitionServer)),
  ];
  return withAvailabilityProber(withDefaultSecurityContext(objects, input.defaultSecurityContextUid), input.availabilityProberImage);
}

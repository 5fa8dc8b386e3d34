import type { HostedControlPlane } from '../api/index.ts';
import type { ReleaseInfo } from '../release/catalog.ts';
import { renderEtcd } from './etcd/render.ts';
import { renderKubeAPIServer } from './kube-apiserver/render.ts';
import { renderKubeControllerManager } from './kube-controller-manager/render.ts';
import { renderKubeScheduler } from './kube-scheduler/render.ts';
import { ControlPlaneNames } from './names.ts';

/** The components, in the order they come up: etcd first, then the API server, then what talks to it. */
export const COMPONENTS = [ControlPlaneNames.etcd, ControlPlaneNames.kubeAPIServer, ControlPlaneNames.kubeControllerManager, ControlPlaneNames.kubeScheduler] as const;

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
}

/** Every object of the control plane's components (Secrets of the PKI come from the operator's PKI phase). */
export function renderControlPlane(input: ControlPlaneInput): Array<Record<string, unknown>> {
  const { hcp, release, configHashes } = input;
  return [
    ...renderEtcd(hcp, release, configHashes.etcd),
    ...renderKubeAPIServer(hcp, release, configHashes['kube-apiserver'], { encryptionKey: input.encryptionKey, kubeadminPassword: input.kubeadminPassword }),
    ...renderKubeControllerManager(hcp, release, configHashes['kube-controller-manager']),
    ...renderKubeScheduler(hcp, release, configHashes['kube-scheduler']),
  ];
}

import type { HostedCluster, HostedControlPlaneSpec } from '../../api/index.ts';
import { API_VERSION } from '../../api/v1beta1/kinds.ts';
import { Annotation } from '../../api/v1beta1/well-known.ts';
import type { KubeManifest } from '../../api/manifest.ts';
import { clusterKey, HostedClusterNames } from './names.ts';

/** Inputs the controller works out before rendering the HostedControlPlane. */
export interface HostedControlPlaneInput {
  readonly hc: HostedCluster;
  /** The generated or given infraID (the HostedCluster's, once defaulted). */
  readonly infraID: string;
  /** `spec.pausedUntil` to copy (only while the HostedCluster is paused). */
  readonly pausedUntil?: string;
}

/** Fields copied as they are: the control plane reads them with the same meaning. */
const COPIED = [
  'clusterID',
  'dns',
  'networking',
  'controllerAvailabilityPolicy',
  'infrastructureAvailabilityPolicy',
  'fips',
  'etcd',
  'services',
  'secretEncryption',
  'olmCatalogPlacement',
  'autoscaling',
  'nodeSelector',
  'tolerations',
  'labels',
  'imageContentSources',
  'configuration',
  'operatorConfiguration',
  'channel',
  'updateService',
  'kubeAPIServerDNSName',
  'capabilities',
  'serviceAccountSigningKey',
  'auditWebhook',
  'additionalTrustBundle',
  'monitoring',
] as const satisfies ReadonlyArray<keyof HostedControlPlaneSpec & keyof HostedCluster['spec']>;

function copied(hc: HostedCluster): Partial<HostedControlPlaneSpec> {
  // Same field names and types on both sides (the `satisfies` above checks the names), so an entry-wise copy holds.
  return Object.fromEntries(COPIED.filter((field) => hc.spec[field] !== undefined).map((field) => [field, hc.spec[field]]));
}

/** The copies' names replace the user's Secret names; an empty SSH key stays empty. */
const sshKeyRef = (hc: HostedCluster): { name: string } => ({ name: hc.spec.sshKey?.name === undefined || hc.spec.sshKey.name === '' ? '' : HostedClusterNames.sshKey });

/** Fields present only when set. */
function optional(input: HostedControlPlaneInput): Partial<HostedControlPlaneSpec> {
  const image = input.hc.spec.controlPlaneRelease?.image;
  return { ...(image === undefined ? {} : { controlPlaneReleaseImage: image }), ...(input.pausedUntil === undefined ? {} : { pausedUntil: input.pausedUntil }) };
}

/**
 * The HostedCluster annotations the control plane acts on, copied to its HostedControlPlane (upstream mirrors these
 * too).
 */
const MIRRORED = [
  Annotation.RestartDate,
  Annotation.ControlPlanePriorityClass,
  Annotation.APICriticalPriorityClass,
  Annotation.EtcdPriorityClass,
  Annotation.KubeAPIServerGOGC,
  Annotation.KubeAPIServerGOMemoryLimit,
] as const;

function annotations(hc: HostedCluster): Record<string, string> {
  const mirrored = MIRRORED.flatMap((key) => {
    const value = hc.metadata.annotations?.[key];
    return value === undefined ? [] : [[key, value] as const];
  });
  return { [Annotation.Cluster]: clusterKey(hc), ...Object.fromEntries(mirrored) };
}

/**
 * The HostedControlPlane for a HostedCluster, in its control-plane namespace: the cluster's spec with references
 * rewritten to the copies made there (pull secret, SSH key), the release image, and the annotations it acts on.
 */
export function renderHostedControlPlane(input: HostedControlPlaneInput): KubeManifest {
  const { hc } = input;
  const spec: HostedControlPlaneSpec = {
    ...copied(hc),
    ...optional(input),
    releaseImage: hc.spec.release.image,
    pullSecret: { name: HostedClusterNames.pullSecret },
    sshKey: sshKeyRef(hc),
    issuerURL: hc.spec.issuerURL ?? 'https://kubernetes.default.svc',
    infraID: input.infraID,
    platform: hc.spec.platform,
    dns: hc.spec.dns ?? { baseDomain: '' },
    etcd: hc.spec.etcd,
    services: hc.spec.services,
  };
  return {
    apiVersion: API_VERSION,
    kind: 'HostedControlPlane',
    metadata: {
      name: hc.metadata.name ?? '',
      namespace: HostedClusterNames.controlPlaneNamespace(hc),
      annotations: annotations(hc),
    },
    spec,
  };
}

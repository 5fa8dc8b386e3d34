import type { KindDefinition } from '../schema/model.ts';
import { hostedClusterRootRules, hostedClusterSpec } from './schema/hostedcluster.ts';
import { hostedClusterStatus } from './schema/hostedcluster-status.ts';
import { hostedControlPlaneSpec, hostedControlPlaneStatus } from './schema/hostedcontrolplane.ts';
import { nodePoolSpec, nodePoolStatus } from './schema/nodepool.ts';
import { hcpEtcdBackupSpec, hcpEtcdBackupStatus } from './schema/hcpetcdbackup.ts';

/** The API group of every kind in this package. */
export const GROUP = 'hypershift.openshift.io';
/** The only served and stored version. */
export const VERSION = 'v1beta1';
/** `apiVersion` of every kind in this package. */
export const API_VERSION = `${GROUP}/${VERSION}`;

const conditionColumn = (name: string, type: string, field: 'status' | 'message', description: string) => ({
  name,
  type: 'string' as const,
  jsonPath: `.status.conditions[?(@.type=="${type}")].${field}`,
  description,
});

/** HostedCluster: a hosted cluster, its control plane and how its nodes reach it. */
export const hostedClusterKind: KindDefinition = {
  group: GROUP,
  version: VERSION,
  kind: 'HostedCluster',
  plural: 'hostedclusters',
  singular: 'hostedcluster',
  shortNames: ['hc', 'hcs'],
  description:
    'HostedCluster is a Kubernetes cluster whose control plane runs as pods in the management cluster and whose ' +
    'worker nodes are provided by NodePools.',
  spec: hostedClusterSpec,
  status: hostedClusterStatus,
  specRequired: false,
  rootRules: hostedClusterRootRules,
  printerColumns: [
    {
      name: 'Version',
      type: 'string',
      jsonPath: '.status.version.history[?(@.state=="Completed")].version',
      description: 'Version',
    },
    { name: 'KubeConfig', type: 'string', jsonPath: '.status.kubeconfig.name', description: 'KubeConfig Secret' },
    {
      name: 'Progress',
      type: 'string',
      jsonPath: '.status.version.history[?(@.state!="")].state',
      description: 'Progress',
    },
    conditionColumn('Available', 'Available', 'status', 'Available'),
    conditionColumn('Progressing', 'Progressing', 'status', 'Progressing'),
    conditionColumn('Message', 'Available', 'message', 'Message'),
  ],
};

/** NodePool: a scalable set of worker nodes of one HostedCluster. */
export const nodePoolKind: KindDefinition = {
  group: GROUP,
  version: VERSION,
  kind: 'NodePool',
  plural: 'nodepools',
  singular: 'nodepool',
  shortNames: ['np', 'nps'],
  description: 'NodePool is a scalable set of identical worker nodes (here: KubeVirt virtual machines) of one HostedCluster.',
  spec: nodePoolSpec,
  status: nodePoolStatus,
  specRequired: false,
  printerColumns: [
    { name: 'Cluster', type: 'string', jsonPath: '.spec.clusterName', description: 'Cluster' },
    { name: 'Desired Nodes', type: 'integer', jsonPath: '.spec.replicas', description: 'Desired Nodes' },
    { name: 'Current Nodes', type: 'integer', jsonPath: '.status.replicas', description: 'Available Nodes' },
    conditionColumn('Autoscaling', 'AutoscalingEnabled', 'status', 'Autoscaling Enabled'),
    conditionColumn('Autorepair', 'AutorepairEnabled', 'status', 'Node Autorepair Enabled'),
    { name: 'Version', type: 'string', jsonPath: '.status.version', description: 'Current version' },
    conditionColumn('UpdatingVersion', 'UpdatingVersion', 'status', 'UpdatingVersion in progress'),
    conditionColumn('UpdatingConfig', 'UpdatingConfig', 'status', 'UpdatingConfig in progress'),
    conditionColumn('Message', 'Ready', 'message', 'Message'),
  ],
  scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
};

/** HostedControlPlane: the resolved control-plane contract, one per HostedCluster, in its control-plane namespace. */
export const hostedControlPlaneKind: KindDefinition = {
  group: GROUP,
  version: VERSION,
  kind: 'HostedControlPlane',
  plural: 'hostedcontrolplanes',
  singular: 'hostedcontrolplane',
  shortNames: ['hcp', 'hcps'],
  categories: ['cluster-api'],
  description:
    'HostedControlPlane is the resolved specification of one control plane, written by the HostedCluster ' +
    'controller into the control-plane namespace and realised by the control-plane controller.',
  spec: hostedControlPlaneSpec,
  status: hostedControlPlaneStatus,
  specRequired: false,
  printerColumns: [],
};

/**
 * HCPEtcdBackup: one backup of a control plane's etcd, requested in its namespace. Behind the `HCPEtcdBackup` feature
 * gate (TechPreviewNoUpgrade), as upstream: `hcp install` installs its CRD only with `--tech-preview-no-upgrade`.
 */
export const hcpEtcdBackupKind: KindDefinition = {
  group: GROUP,
  version: VERSION,
  kind: 'HCPEtcdBackup',
  plural: 'hcpetcdbackups',
  singular: 'hcpetcdbackup',
  shortNames: ['hcpetcdbk'],
  description: 'HCPEtcdBackup represents a request to back up etcd for a hosted control plane.',
  spec: hcpEtcdBackupSpec,
  status: hcpEtcdBackupStatus,
  specRequired: true,
  printerColumns: [
    conditionColumn('Completed', 'BackupCompleted', 'status', 'Backup completion status'),
    { name: 'URL', type: 'string', jsonPath: '.status.snapshotURL', description: 'Snapshot URL' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: 'Age' },
  ],
};

/** The kinds every install serves. */
export const DEFAULT_KINDS: readonly KindDefinition[] = [hostedClusterKind, nodePoolKind, hostedControlPlaneKind];

/** The kinds behind TechPreviewNoUpgrade feature gates, by gate. */
export const GATED_KINDS: Readonly<Record<'HCPEtcdBackup', KindDefinition>> = { HCPEtcdBackup: hcpEtcdBackupKind };

/** Every kind of the v1beta1 API, in a stable order (what is generated, validated offline and served in tests). */
export const KINDS: readonly KindDefinition[] = [...DEFAULT_KINDS, hcpEtcdBackupKind];

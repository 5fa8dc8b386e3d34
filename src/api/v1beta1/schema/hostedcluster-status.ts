import { s } from '../../schema/build.ts';
import type { ObjectSchema } from '../../schema/model.ts';
import { localObjectReference } from './common.ts';
import { clusterVersionStatus, conditions, controlPlaneVersionStatus } from './version-status.ts';

const ref = (description: string): ObjectSchema => ({ ...localObjectReference, description });

/** `status.controlPlaneEndpoint`. */
export const apiEndpoint: ObjectSchema = s.object(
  'APIEndpoint',
  'Where the hosted API server is reached.',
  {
    host: s.string('The host name or IP address.', { maxLength: 255 }),
    port: s.int32('The port.'),
  },
  { required: ['host', 'port'] },
);

/** `HostedCluster.status`. */
export const hostedClusterStatus: ObjectSchema = s.object('HostedClusterStatus', 'The observed state of a hosted cluster.', {
  conditions,
  version: clusterVersionStatus,
  controlPlaneVersion: controlPlaneVersionStatus,
  kubeconfig: ref('The Secret, in the HostedCluster namespace, with the admin kubeconfig under "kubeconfig".'),
  customKubeconfig: ref('The Secret with a kubeconfig for spec.kubeAPIServerDNSName.'),
  kubeadminPassword: ref('The Secret with the kubeadmin password under "password".'),
  ignitionEndpoint: s.string('Where nodes fetch their ignition/bootstrap configuration.', { maxLength: 1024 }),
  controlPlaneEndpoint: apiEndpoint,
  oauthCallbackURLTemplate: s.string('The OAuth callback URL template for identity providers.', { maxLength: 1024 }),
  payloadArch: s.enum('PayloadArchType', 'The CPU architecture(s) of the release payload.', ['Multi', 'ARM64', 'AMD64', 'PPC64LE', 'S390X']),
  platform: s.opaque('Platform-specific status.'),
  configuration: s.opaque('The effective cluster configuration.'),
  secretEncryption: s.opaque('The state of secret-encryption key rotation.'),
  autoNode: s.opaque('The state of automatic node provisioning.'),
  lastSuccessfulEtcdBackupURL: s.string('Where the newest successful etcd backup of the cluster is (an HCPEtcdBackup\'s snapshotURL).', {
    maxLength: 2048,
  }),
});

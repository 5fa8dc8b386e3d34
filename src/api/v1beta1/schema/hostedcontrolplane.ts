import { cannotRemove, s } from '../../schema/build.ts';
import type { ObjectSchema } from '../../schema/model.ts';
import {
  capabilities,
  clusterAutoscaling,
  NETWORK_OPERATOR_RULES,
  operatorConfiguration,
  dnsSpec,
  etcdSpec,
  imageContentSource,
  secretEncryptionSpec,
} from './cluster-config.ts';
import { availabilityPolicy, localObjectReference, monitoringSpec, secretKeyReference, toleration } from './common.ts';
import { apiEndpoint } from './hostedcluster-status.ts';
import { clusterNetworking } from './hostedcluster-networking.ts';
import { clusterPlatformSpec } from './platform.ts';
import { services } from './services.ts';
import { clusterVersionStatus, conditions } from './version-status.ts';

const ref = (description: string): ObjectSchema => ({ ...localObjectReference, description });
const kubeconfigRef = (description: string): ObjectSchema =>
  secretKeyReference('KubeconfigSecretRef', description);

/**
 * `HostedControlPlane.spec`: the contract between the HostedCluster controller (which writes it) and the
 * control-plane controller (which renders the components from it). Values are resolved: no defaults are left open.
 */
export const hostedControlPlaneSpec: ObjectSchema = s.object(
  'HostedControlPlaneSpec',
  'The resolved desired state of one control plane, written by the HostedCluster controller.',
  {
    releaseImage: s.string('The release image of the cluster.', { maxLength: 255 }),
    controlPlaneReleaseImage: s.string('The release image used for control-plane components, if different.', { maxLength: 255 }),
    pullSecret: ref('The pull secret, copied into the control-plane namespace.'),
    sshKey: ref('The SSH key Secret, copied into the control-plane namespace.'),
    issuerURL: s.string('The service-account token issuer.', { maxLength: 255 }),
    serviceAccountSigningKey: ref('A Secret whose "key" signs service-account tokens.'),
    clusterID: s.string('The cluster UUID.', { maxLength: 255 }),
    infraID: s.string('The infrastructure ID.', { maxLength: 255 }),
    platform: clusterPlatformSpec,
    dns: dnsSpec,
    networking: clusterNetworking,
    controllerAvailabilityPolicy: availabilityPolicy(
      'Replicas and spreading of the control-plane components.',
      'HighlyAvailable',
      'ControllerAvailabilityPolicy is immutable',
    ),
    infrastructureAvailabilityPolicy: availabilityPolicy('Availability of node-side components.', 'SingleReplica'),
    fips: s.bool('Runs the cluster in FIPS mode.'),
    kubeconfig: kubeconfigRef('Where the control-plane controller publishes the admin kubeconfig, in the control-plane namespace.'),
    auditWebhook: ref('A Secret with an audit-webhook kubeconfig.'),
    etcd: etcdSpec,
    services,
    secretEncryption: secretEncryptionSpec,
    pausedUntil: s.string('Copied from the HostedCluster: reconciliation is paused while set to true or a future date.', {
      maxLength: 255,
    }),
    olmCatalogPlacement: s.enum('OLMCatalogPlacement', 'Where the OLM catalogs run.', ['management', 'guest'], {
      default: 'management',
    }),
    autoscaling: clusterAutoscaling,
    nodeSelector: s.map('Management-cluster node labels the control-plane pods must run on.', s.string('A label value.')),
    tolerations: s.array('Tolerations added to every control-plane pod.', toleration, { maxItems: 25 }),
    labels: s.map('Labels added to every control-plane pod.', s.string('A label value.'), { maxProperties: 20 }),
    imageContentSources: s.array('Registry mirrors.', imageContentSource, { maxItems: 255 }),
    additionalTrustBundle: ref('A ConfigMap with extra trusted CAs.'),
    configuration: s.opaque('OpenShift cluster configuration; stored as given.'),
    operatorConfiguration,
    channel: s.string('The update channel.', { maxLength: 255 }),
    updateService: s.string('The update service URL.'),
    kubeAPIServerDNSName: s.string('An extra DNS name for the API server.', {
      maxLength: 253,
      rules: [
        {
          rule: "self == \"\" || self.matches('^(?:(?:[a-zA-Z0-9-]+\\\\.)+[a-zA-Z]{2,}|[a-zA-Z0-9-]+)$')",
          message: 'kubeAPIServerDNSName must be a valid URL name (e.g., api.example.com)',
        },
      ],
    }),
    capabilities,
    autoNode: s.opaque('Automatic node provisioning; stored as given.'),
    monitoring: monitoringSpec,
  },
  {
    required: ['dns', 'etcd', 'infraID', 'issuerURL', 'platform', 'pullSecret', 'releaseImage', 'services', 'sshKey'],
    rules: [
      {
        rule: "self.platform.type == 'IBMCloud' ? size(self.services) >= 3 : size(self.services) >= 4",
        message: 'spec.services in body should have at least 4 items or 3 for IBMCloud',
        fieldPath: '.services',
      },
      cannotRemove('secretEncryption', 'secretEncryption cannot be removed once configured'),
      ...NETWORK_OPERATOR_RULES,
    ],
  },
);

/** `HostedControlPlane.status`. */
export const hostedControlPlaneStatus: ObjectSchema = s.object(
  'HostedControlPlaneStatus',
  'The observed state of one control plane.',
  {
    ready: s.bool('Whether the API server is serving.', { default: false }),
    initialized: s.bool('Whether the control plane finished its first start.', { default: false }),
    externalManagedControlPlane: s.bool('Always true: the control plane is not run by the hosted cluster itself.', {
      default: true,
    }),
    controlPlaneEndpoint: apiEndpoint,
    oauthCallbackURLTemplate: s.string('The OAuth callback URL template.', { maxLength: 255 }),
    versionStatus: clusterVersionStatus,
    version: s.string('The version of the release running.', { maxLength: 255 }),
    releaseImage: s.string('The release image running.', { maxLength: 255 }),
    lastReleaseImageTransitionTime: s.string('When releaseImage last changed.', { format: 'date-time' }),
    kubeConfig: kubeconfigRef('The admin kubeconfig of the hosted cluster, in the control-plane namespace.'),
    customKubeconfig: kubeconfigRef('A kubeconfig for spec.kubeAPIServerDNSName.'),
    kubeadminPassword: ref('The Secret with the kubeadmin password.'),
    conditions,
    platform: s.opaque('Platform-specific status.'),
    nodeCount: s.int32('The number of nodes in the hosted cluster.'),
    configuration: s.opaque('The effective cluster configuration.'),
    controlPlaneVersion: s.opaque('The control-plane release history.'),
    secretEncryption: s.opaque('The state of secret-encryption key rotation.'),
    autoNode: s.opaque('The state of automatic node provisioning.'),
  },
  { required: ['initialized', 'ready'] },
);

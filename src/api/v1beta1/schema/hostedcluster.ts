import { cannotRemove, immutable, immutableOnceSet, s } from '../../schema/build.ts';
import type { ObjectSchema } from '../../schema/model.ts';
import { DNS1123_LABEL } from '../../schema/patterns.ts';
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
import { availabilityPolicy, localObjectReference, monitoringSpec, pausedUntil, release, requiredRelease, toleration } from './common.ts';
import { clusterNetworking } from './hostedcluster-networking.ts';
import { clusterPlatformSpec } from './platform.ts';
import { services } from './services.ts';

const ref = (description: string): ObjectSchema => ({ ...localObjectReference, description });

const URL_RULE = (field: string): { rule: string; message: string } => ({
  rule: 'isURL(self)',
  message: `${field} must be a valid absolute URL`,
});

const identity = {
  release,
  controlPlaneRelease: { ...requiredRelease, description: 'A separate release for the control plane only; spec.release when absent.' },
  clusterID: s.string('A UUID identifying the cluster in telemetry; generated when empty.', {
    minLength: 36,
    maxLength: 36,
    rules: [
      {
        rule: "self.matches('[a-fA-F0-9]{8}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12}')",
        message: 'clusterID must be an RFC4122 UUID value (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx in hexadecimal digits)',
      },
      immutableOnceSet('clusterID is immutable'),
    ],
  }),
  infraID: s.string('A unique ID used to name and label infrastructure objects; generated when empty.', {
    minLength: 1,
    maxLength: 253,
    rules: [
      {
        rule: `self.matches('${DNS1123_LABEL}')`,
        message:
          "infraID must consist of lowercase alphanumeric characters or '-', start and end with an alphanumeric character, and be between 1 and 253 characters",
      },
      immutableOnceSet('infraID is immutable'),
    ],
  }),
  channel: s.string('The update channel of the cluster.', { minLength: 1, maxLength: 100 }),
  updateService: s.string('The URL of an update service to query for available updates.', { rules: [URL_RULE('updateService')] }),
};

const controlPlane = {
  platform: clusterPlatformSpec,
  controllerAvailabilityPolicy: availabilityPolicy(
    'HighlyAvailable runs several replicas of each control-plane component; SingleReplica runs one.',
    'HighlyAvailable',
    'ControllerAvailabilityPolicy is immutable',
  ),
  infrastructureAvailabilityPolicy: availabilityPolicy(
    'The availability of components that run on the nodes (e.g. ingress).',
    'SingleReplica',
  ),
  dns: dnsSpec,
  networking: clusterNetworking,
  etcd: etcdSpec,
  services,
  issuerURL: s.string('The OIDC issuer of the service-account tokens of the hosted cluster.', {
    maxLength: 255,
    default: 'https://kubernetes.default.svc',
    rules: [immutable('issuerURL is immutable'), URL_RULE('issuerURL')],
  }),
  serviceAccountSigningKey: ref('A Secret whose "key" signs service-account tokens; generated when absent.'),
  kubeAPIServerDNSName: s.string('An extra DNS name for the API server, added to its serving certificate.', {
    maxLength: 253,
    rules: [
      {
        rule: "self == \"\" || self.matches('^(?:(?:[a-zA-Z0-9-]+\\\\.)+[a-zA-Z]{2,}|[a-zA-Z0-9-]+)$')",
        message: 'kubeAPIServerDNSName must be a valid URL name (e.g., api.example.com)',
      },
    ],
  }),
};

const secrets = {
  pullSecret: ref('A Secret of type kubernetes.io/dockerconfigjson with credentials to pull the release images.'),
  sshKey: ref('A Secret whose "id_rsa.pub" key is authorized on every node.'),
  additionalTrustBundle: ref('A ConfigMap whose "ca-bundle.crt" is trusted by the cluster.'),
  auditWebhook: ref('A Secret with a kubeconfig for an audit webhook of the API server.'),
  secretEncryption: secretEncryptionSpec,
  fips: s.bool('Runs the cluster in FIPS mode.', { rules: [immutable('fips is immutable')] }),
};

const placement = {
  nodeSelector: s.map('Management-cluster node labels the control-plane pods must run on.', s.string('A label value.'), {
    rules: [{ rule: 'size(self) <= 20', message: 'nodeSelector map can have at most 20 entries' }],
  }),
  tolerations: s.array('Tolerations added to every control-plane pod.', toleration, { maxItems: 25 }),
  labels: s.map('Labels added to every control-plane pod.', s.string('A label value.'), { maxProperties: 20 }),
  olmCatalogPlacement: s.enum('OLMCatalogPlacement', 'Where the OLM catalogs run.', ['management', 'guest'], {
    default: 'management',
    rules: [immutable('OLMCatalogPlacement is immutable')],
  }),
};

const features = {
  pausedUntil: pausedUntil(4),
  capabilities,
  autoscaling: clusterAutoscaling,
  imageContentSources: s.array('Registry mirrors used for the release images.', imageContentSource, { maxItems: 255 }),
  configuration: s.opaque('OpenShift cluster configuration (apiServer, oauth, proxy, …); stored as given.'),
  operatorConfiguration,
  autoNode: s.opaque('Karpenter-based automatic node provisioning (not on KubeVirt); stored as given.'),
  monitoring: monitoringSpec,
};

/** `HostedCluster.spec`. */
export const hostedClusterSpec: ObjectSchema = s.object(
  'HostedClusterSpec',
  'The desired state of a hosted cluster.',
  { ...identity, ...controlPlane, ...secrets, ...placement, ...features },
  {
    required: ['release', 'etcd', 'networking', 'platform', 'pullSecret', 'services'],
    rules: [
      {
        rule: "self.platform.type == 'IBMCloud' ? size(self.services) >= 3 : size(self.services) >= 4",
        message: 'spec.services in body should have at least 4 items or 3 for IBMCloud',
        fieldPath: '.services',
      },
      {
        rule: 'self.platform.type != "IBMCloud" ? self.services == oldSelf.services : true',
        message: 'Services is immutable. Changes might result in unpredictable and disruptive behavior.',
        fieldPath: '.services',
      },
      {
        rule: 'has(self.issuerURL) || !has(self.serviceAccountSigningKey)',
        message: 'If serviceAccountSigningKey is set, issuerURL must be set',
      },
      cannotRemove('secretEncryption', 'secretEncryption cannot be removed once configured'),
      ...NETWORK_OPERATOR_RULES,
    ],
  },
);

/** HostedCluster root rules: fields that may be set by the operator but never removed. */
export const hostedClusterRootRules = [
  {
    rule: '!has(oldSelf.spec) || !has(oldSelf.spec.infraID) || (has(self.spec) && has(self.spec.infraID))',
    message: 'infraID cannot be removed once set',
  },
  {
    rule: '!has(oldSelf.spec) || !has(oldSelf.spec.clusterID) || (has(self.spec) && has(self.spec.clusterID))',
    message: 'clusterID cannot be removed once set',
  },
];

import { immutable, s } from '../../schema/build.ts';
import type { ObjectSchema, StringSchema } from '../../schema/model.ts';
import { CIDR_RULE, DURATION_PATTERN } from '../../schema/patterns.ts';

/** A reference to an object by name in the same namespace (`corev1.LocalObjectReference`). */
export const localObjectReference: ObjectSchema = s.object(
  'LocalObjectReference',
  'A reference to an object by name in the same namespace.',
  { name: s.string('The name of the referenced object.', { default: '' }) },
  { mapType: 'atomic' },
);

/** A reference to one key of a Secret in the same namespace. */
export const secretKeyReference = (name: string, description: string): ObjectSchema =>
  s.object(
    name,
    description,
    {
      name: s.string('The name of the Secret.', { maxLength: 255 }),
      key: s.string('The key inside the Secret that holds the value.', { maxLength: 255 }),
    },
    { required: ['name', 'key'] },
  );

/** What every release image must look like (upstream's rule and message). */
const RELEASE_IMAGE_RULE = "self.matches('^(\\\\w+\\\\S+)$')";
const RELEASE_IMAGE_MESSAGE = 'Image must start with a word character (letters, digits, or underscores) and contain no white spaces';

const releaseWith = (image: StringSchema): ObjectSchema =>
  s.object('Release', 'A release payload: an OCI image that lists the component images of one OpenShift/Kubernetes version.', { image }, { required: ['image'] });

/** The release payload to run. */
export const release: ObjectSchema = releaseWith(
  s.string(
    'The pull spec of the release image. An empty string means "not chosen yet": the CLI fills it in before ' +
      'applying and the operator reports ValidReleaseImage=False until it is set.',
    { maxLength: 253, rules: [{ rule: `self == '' || ${RELEASE_IMAGE_RULE}`, message: RELEASE_IMAGE_MESSAGE }] },
  ),
);

/** A release that must name an image (no "not chosen yet" state), e.g. `spec.controlPlaneRelease`. */
export const requiredRelease: ObjectSchema = releaseWith(
  s.string('The pull spec of the release image.', { minLength: 1, maxLength: 253, rules: [{ rule: RELEASE_IMAGE_RULE, message: RELEASE_IMAGE_MESSAGE }] }),
);

/** `corev1.Toleration`. */
export const toleration: ObjectSchema = s.object(
  'Toleration',
  'Lets a pod schedule onto nodes with a matching taint.',
  {
    key: s.string('The taint key the toleration applies to; empty matches all keys (with operator Exists).'),
    operator: s.enum('TolerationOperator', 'How the key and value are compared.', ['Exists', 'Equal', 'Lt', 'Gt']),
    value: s.string('The taint value to match.'),
    effect: s.enum('TaintEffectOrAll', 'The taint effect to match; empty matches all effects.', [
      'NoSchedule',
      'PreferNoSchedule',
      'NoExecute',
      '',
    ]),
    tolerationSeconds: s.int64('How long a NoExecute taint is tolerated before eviction.'),
  },
);

/** `metav1.Condition`, as used in HostedCluster status. */
export const condition: ObjectSchema = s.object(
  'Condition',
  'One aspect of the current state of the object.',
  {
    type: s.string('The condition type, such as Available.', {
      maxLength: 316,
      pattern:
        '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
      patternDescription: 'a qualified name such as Available',
    }),
    status: s.enum('ConditionStatus', 'True, False or Unknown.', ['True', 'False', 'Unknown']),
    observedGeneration: s.int64('The metadata.generation the condition was computed from.', { minimum: 0 }),
    lastTransitionTime: s.string('When the status last changed.', { format: 'date-time' }),
    reason: s.string('A CamelCase word that explains the status, for programs.', {
      minLength: 1,
      maxLength: 1024,
      pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$',
      patternDescription: 'a CamelCase reason',
    }),
    message: s.string('A human-readable explanation.', { maxLength: 32768 }),
  },
  { required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'] },
);

/** A string field holding a Go-style duration. */
export function duration(description: string): StringSchema {
  return s.string(description, { pattern: DURATION_PATTERN, patternDescription: 'a duration such as 30s or 1h30m' });
}

/** A CIDR entry of a network list (`clusterNetwork`, `serviceNetwork`, `machineNetwork`). */
export function cidrEntry(name: string, description: string, extra: ObjectSchema['properties'] = {}): ObjectSchema {
  return s.object(
    name,
    description,
    {
      cidr: s.string('The IP block in CIDR notation.', {
        maxLength: 43,
        rules: [
          {
            rule: CIDR_RULE,
            message: 'cidr must be a valid IPv4 or IPv6 CIDR notation (e.g., 192.168.1.0/24 or 2001:db8::/64)',
          },
        ],
      }),
      ...extra,
    },
    { required: ['cidr'] },
  );
}

/** The `pausedUntil` field shared by HostedCluster, NodePool and HostedControlPlane. */
export function pausedUntil(minLength: number): StringSchema {
  return s.string(
    'Pauses reconciliation: "true" pauses until the field is removed or set to "false", an RFC3339 date pauses ' +
      'until that time.',
    {
      minLength,
      maxLength: 35,
      rules: [
        {
          rule: "self.matches('^\\\\d{4}-\\\\d{2}-\\\\d{2}T\\\\d{2}:\\\\d{2}:\\\\d{2}.*$') || self in ['true', 'false', 'True', 'False']",
          message: "PausedUntil must be a date in RFC3339 format or 'True', 'true', 'False' or 'false'",
        },
      ],
    },
  );
}

/** An availability policy enum with the given default. */
export function availabilityPolicy(description: string, defaultValue: string, immutableMessage?: string): StringSchema {
  return s.enum('AvailabilityPolicy', description, ['HighlyAvailable', 'SingleReplica'], {
    default: defaultValue,
    ...(immutableMessage === undefined ? {} : { rules: [immutable(immutableMessage)] }),
  });
}

/** The platform types HyperShift defines; only KubeVirt is implemented, the others are accepted for compatibility. */
export const PLATFORM_TYPES = ['AWS', 'Azure', 'IBMCloud', 'KubeVirt', 'Agent', 'PowerVS', 'None'] as const;

/** The `platform.type` field. */
export const platformType: StringSchema = s.enum(
  'PlatformType',
  'The infrastructure the nodes run on. Only KubeVirt is implemented by this project.',
  PLATFORM_TYPES,
  { maxLength: 100, rules: [immutable('Type is immutable')] },
);

/** The metrics sets a control plane's monitors keep (upstream's names, as `METRICS_SET` takes them). */
export const METRICS_SETS = ['Telemetry', 'SRE', 'All'] as const;

/**
 * `spec.monitoring` (upstream's MonitoringSpec): `metricsSet` overrides the operator's `METRICS_SET` for this cluster.
 * Metrics forwarding into the guest has no metrics proxy here, so it is stored as given.
 */
export const monitoringSpec: ObjectSchema = s.object(
  'MonitoringSpec',
  'Metrics collection settings of the control plane.',
  {
    metricsSet: s.enum('MetricsSet', "The metrics set of this control plane's ServiceMonitors; the operator's METRICS_SET when unset.", METRICS_SETS),
    metricsForwarding: s.opaque('Forwarding of control-plane metrics into the guest (no metrics proxy here); stored as given.'),
  },
  { minProperties: 1 },
);

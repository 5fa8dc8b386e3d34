import { immutable, s } from '../../schema/build.ts';
import type { ObjectSchema } from '../../schema/model.ts';
import { CIDR_RULE } from '../../schema/patterns.ts';
import { cidrEntry } from './common.ts';

const apiServerNetworking = s.object(
  'APIServerNetworking',
  'How the hosted kube-apiserver is reached from the nodes.',
  {
    advertiseAddress: s.string('The address the nodes use to reach the API server locally.', {
      maxLength: 255,
      rules: [immutable('advertiseAddress is immutable')],
    }),
    port: s.int32('The port the API server listens on and is reached at.', { rules: [immutable('port is immutable')] }),
    allowedCIDRBlocks: s.array(
      'Source ranges allowed to reach the API server; all when empty.',
      s.string('An IP block in CIDR notation.', {
        maxLength: 43,
        rules: [
          {
            rule: CIDR_RULE,
            message: 'cidr must be a valid IPv4 or IPv6 CIDR notation (e.g., 192.168.1.0/24 or 2001:db8::/64)',
          },
        ],
      }),
      { maxItems: 500, listType: 'set' },
    ),
  },
);

/** `spec.networking`, shared by HostedCluster and HostedControlPlane. */
export const clusterNetworking: ObjectSchema = s.object(
  'ClusterNetworking',
  'The IP ranges and network plugin of the hosted cluster.',
  {
    machineNetwork: s.array('The IP ranges of the nodes.', cidrEntry('MachineNetworkEntry', 'A node IP range.'), {
      minItems: 1,
      maxItems: 2,
      rules: [immutable('machineNetwork is immutable and cannot be modified once set.')],
    }),
    clusterNetwork: s.array(
      'The IP ranges pods get their addresses from.',
      cidrEntry('ClusterNetworkEntry', 'A pod IP range.', {
        hostPrefix: s.int32('The prefix length of the subnet each node gets from this range.'),
      }),
      {
        minItems: 1,
        maxItems: 2,
        default: [{ cidr: '10.132.0.0/14' }],
        rules: [immutable('clusterNetwork is immutable and cannot be modified once set.')],
      },
    ),
    serviceNetwork: s.array('The IP ranges Services get their addresses from.', cidrEntry('ServiceNetworkEntry', 'A Service IP range.'), {
      minItems: 1,
      maxItems: 2,
      default: [{ cidr: '172.31.0.0/16' }],
      rules: [immutable('serviceNetwork is immutable and cannot be modified once set.')],
    }),
    networkType: s.enum(
      'NetworkType',
      'The network plugin of the hosted cluster.',
      ['OpenShiftSDN', 'Calico', 'OVNKubernetes', 'Other'],
      { default: 'OVNKubernetes' },
    ),
    apiServer: apiServerNetworking,
    allocateNodeCIDRs: s.enum(
      'AllocateNodeCIDRsMode',
      'Whether kube-controller-manager assigns pod CIDRs to nodes.',
      ['Enabled', 'Disabled'],
      { rules: [immutable('allocateNodeCIDRs is immutable and cannot be modified once set.')] },
    ),
  },
  {
    default: {
      networkType: 'OVNKubernetes',
      clusterNetwork: [{ cidr: '10.132.0.0/14' }],
      serviceNetwork: [{ cidr: '172.31.0.0/16' }],
    },
    rules: [
      {
        rule:
          '(!has(self.machineNetwork) && self.clusterNetwork.all(c, self.serviceNetwork.all(s, c.cidr != s.cidr)) || ' +
          '(has(self.machineNetwork) && (self.machineNetwork.all(m, self.clusterNetwork.all(c, m.cidr != c.cidr)) && ' +
          'self.machineNetwork.all(m, self.serviceNetwork.all(s, m.cidr != s.cidr)) && ' +
          'self.clusterNetwork.all(c, self.serviceNetwork.all(s, c.cidr != s.cidr)))))',
        message: 'CIDR ranges in machineNetwork, clusterNetwork, and serviceNetwork must be unique and non-overlapping',
      },
      {
        rule: "has(self.allocateNodeCIDRs) && self.allocateNodeCIDRs == 'Enabled' ? self.networkType == 'Other' : true",
        message: "allocateNodeCIDRs can only be set to Enabled when networkType is 'Other'",
      },
    ],
  },
);

import { s } from '../../schema/build.ts';
import type { ArraySchema, ObjectSchema } from '../../schema/model.ts';

const HOSTNAME_RULE = {
  rule: "self.matches('^(?:[a-zA-Z0-9-]+\\\\.)+[a-zA-Z]{2,}$')",
  message: 'hostname must be a valid domain name (e.g., example.com)',
};

const hostnameField = (description: string): ObjectSchema['properties'][string] =>
  s.string(description, { minLength: 1, maxLength: 253, rules: [HOSTNAME_RULE] });

const NODE_PORT_ADDRESS_RULE =
  "self.matches('^(([a-zA-Z0-9][-a-zA-Z0-9]*\\\\.)+[a-zA-Z]{2,}|localhost)$') || " +
  "self.matches('^((\\\\d{1,3}\\\\.){3}\\\\d{1,3})$') || " +
  "self.matches('^(([0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}|([0-9a-fA-F]{1,4}:){1,7}:|([0-9a-fA-F]{1,4}:){1,6}:[0-9a-fA-F]{1,4}|" +
  '([0-9a-fA-F]{1,4}:){1,5}(:[0-9a-fA-F]{1,4}){1,2}|([0-9a-fA-F]{1,4}:){1,4}(:[0-9a-fA-F]{1,4}){1,3}|' +
  '([0-9a-fA-F]{1,4}:){1,3}(:[0-9a-fA-F]{1,4}){1,4}|([0-9a-fA-F]{1,4}:){1,2}(:[0-9a-fA-F]{1,4}){1,5}|' +
  "[0-9a-fA-F]{1,4}:((:[0-9a-fA-F]{1,4}){1,6})|:((:[0-9a-fA-F]{1,4}){1,7}|:))$')";

const publishingStrategy = s.object(
  'ServicePublishingStrategy',
  'How one control-plane service is exposed to the nodes and users.',
  {
    type: s.enum('PublishingStrategyType', 'The kind of exposure.', ['LoadBalancer', 'NodePort', 'Route', 'None', 'S3']),
    nodePort: s.object(
      'NodePortPublishingStrategy',
      'Exposure on a port of the management cluster nodes.',
      {
        address: s.string('The host name or IP address the nodes use to reach the service.', {
          minLength: 1,
          maxLength: 253,
          rules: [{ rule: NODE_PORT_ADDRESS_RULE, message: 'address must be a valid hostname, IPv4, or IPv6 address' }],
        }),
        port: s.int32('The node port; allocated when empty.'),
      },
      { required: ['address'] },
    ),
    loadBalancer: s.object('LoadBalancerPublishingStrategy', 'Exposure through a LoadBalancer Service.', {
      hostname: hostnameField('A DNS name that resolves to the load balancer.'),
    }),
    route: s.object('RoutePublishingStrategy', 'Exposure through an OpenShift Route.', {
      hostname: hostnameField('The host name of the Route.'),
    }),
  },
  {
    required: ['type'],
    rules: [
      {
        rule: "self.type == 'NodePort' ? has(self.nodePort) : !has(self.nodePort)",
        message: 'nodePort is required when type is NodePort, and forbidden otherwise',
      },
      {
        rule: "self.type == 'Route' ? !has(self.nodePort) && !has(self.loadBalancer) : !has(self.route)",
        message: 'only route is allowed when type is Route, and forbidden otherwise',
      },
      {
        rule: "self.type == 'LoadBalancer' ? !has(self.nodePort) && !has(self.route) : !has(self.loadBalancer)",
        message: 'only loadBalancer is required when type is LoadBalancer, and forbidden otherwise',
      },
      {
        rule: "self.type == 'None' ? !has(self.nodePort) && !has(self.route) && !has(self.loadBalancer) : true",
        message: 'None does not allowed any configuration for loadBalancer, nodePort, or route',
      },
      {
        rule: "self.type == 'S3' ? !has(self.nodePort) && !has(self.route) && !has(self.loadBalancer) : true",
        message: 'S3 does not allowed any configuration for loadBalancer, nodePort, or route',
      },
    ],
  },
);

/** The service names a publishing strategy can be set for. */
export const SERVICE_TYPES = ['APIServer', 'OAuthServer', 'OIDC', 'Konnectivity', 'Ignition', 'OVNSbDb'] as const;

/** `spec.services`: how each control-plane service is published. */
export const services: ArraySchema = s.array(
  'How each control-plane service is published. APIServer, OAuthServer, Konnectivity and Ignition are required.',
  s.object(
    'ServicePublishingStrategyMapping',
    'The publishing strategy of one service.',
    {
      service: s.enum('ServiceType', 'The control-plane service.', SERVICE_TYPES),
      servicePublishingStrategy: publishingStrategy,
    },
    { required: ['service', 'servicePublishingStrategy'] },
  ),
  { maxItems: 6 },
);

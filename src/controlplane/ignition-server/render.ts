import type { HostedControlPlane, ServicePublishingStrategy } from '../../api/index.ts';
import type { ReleaseInfo } from '../../release/info.ts';
import { podDisruptionBudget, replicasFor } from '../common/placement.ts';
import { passthroughRoute, publishedService } from '../common/publishing.ts';
import { CONTAINER_SECURITY, deployment, serviceAccountWithRole, httpsCheck, probes, mountPath, secretVolumeMounts, secretVolumes, type Requests, type SecretMount } from '../common/pod.ts';
import { ControlPlaneNames } from '../names.ts';
import { PkiSecret, serviceAddress, serviceCIDROf } from '../pki/plan.ts';

/** The ignition endpoint's requests: an HTTPS server over one Secret watch, on the lean bundle (measured: bench/local-up/memory-measured.json). */
export const IGNITION_SERVER_REQUESTS: Requests = { cpu: '10m', memory: '80Mi' };
const NAME = ControlPlaneNames.ignitionServer;
/** The port the server listens on in its pod, and the port its Service (and a Route) publishes (upstream's). */
export const IGNITION_SERVER_PORT = 9090;
export const IGNITION_SERVICE_PORT = 443;
const SERVING: SecretMount = { volume: 'serving-cert', secret: PkiSecret.ignitionServer, keys: ['tls.crt', 'tls.key'] };

/** What the ignition endpoint needs beyond the HostedControlPlane and the release. */
export interface IgnitionServerInput {
  /** The operator's image: the endpoint is another entry point of it. */
  readonly image: string;
  /** `https://host:port` of the hosted API server as machines reach it (the published endpoint). */
  readonly apiServerURL: string;
}

/** The publishing strategy of the `Ignition` service (upstream's default: a Route). */
export const ignitionStrategyOf = (hcp: HostedControlPlane): ServicePublishingStrategy =>
  hcp.spec.services.find((s) => s.service === 'Ignition')?.servicePublishingStrategy ?? { type: 'Route' };

/** Reads the namespace's Secrets (token Secrets, root CA, pull secret, SSH key) and marks token Secrets reached. */
const rbac = (hcp: HostedControlPlane): Array<Record<string, unknown>> => serviceAccountWithRole(hcp, NAME, [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch', 'patch'] }]);

function container(hcp: HostedControlPlane, release: ReleaseInfo, input: IgnitionServerInput): Record<string, unknown> {
  const cert = mountPath(SERVING.volume);
  return {
    name: NAME,
    image: input.image,
    command: ['hcp-operator', 'ignition-server'],
    args: [
      `--listen=:${String(IGNITION_SERVER_PORT)}`,
      `--cert-file=${cert}/tls.crt`,
      `--key-file=${cert}/tls.key`,
      `--api-server-url=${input.apiServerURL}`,
      `--cluster-dns=${serviceAddress(serviceCIDROf(hcp), 10)}`,
      '--cluster-domain=cluster.local',
      `--sandbox-image=${release.images.pause}`,
    ],
    env: [{ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }],
    ports: [{ name: 'https', containerPort: IGNITION_SERVER_PORT, protocol: 'TCP' }],
    ...probes({ ready: httpsCheck('/healthz', IGNITION_SERVER_PORT), live: httpsCheck('/healthz', IGNITION_SERVER_PORT), startupLimit: 60 }),
    resources: { requests: IGNITION_SERVER_REQUESTS },
    securityContext: CONTAINER_SECURITY,
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: [{ name: 'tmp-dir', mountPath: '/tmp' }, ...secretVolumeMounts([SERVING])],
  };
}

/**
 * The ignition endpoint of a control plane (`hcp-operator ignition-server`, the operator's image): its service
 * account and Role on the namespace's Secrets, the Deployment (2 replicas when HighlyAvailable, spread like the other
 * components), the Service per the `Ignition` publishing strategy (a passthrough Route for Route) and its budget.
 */
export function renderIgnitionServer(hcp: HostedControlPlane, release: ReleaseInfo, configHash: string, input: IgnitionServerInput): Array<Record<string, unknown>> {
  const strategy = ignitionStrategyOf(hcp);
  const workload = deployment({ hcp, component: NAME, tier: 'control-plane', configHash, containers: [container(hcp, release, input)], volumes: secretVolumes([SERVING]), serviceAccount: NAME }, replicasFor(hcp, 'control-plane'));
  const service = publishedService(hcp, { name: NAME, component: NAME, portName: 'https', port: IGNITION_SERVICE_PORT, targetPort: IGNITION_SERVER_PORT }, strategy);
  return [...rbac(hcp), service, ...(strategy.type === 'Route' ? [passthroughRoute(hcp, NAME, strategy)] : []), workload, podDisruptionBudget(hcp, NAME)];
}

/**
 * The workload the demo (and the e2e tier) puts on a hosted cluster's workers: a small HTTP server — CoreDNS's health
 * endpoint, from the image the environment builds, so nothing is downloaded — as two replicas required on different
 * Nodes, behind a ClusterIP Service. Its answer through the API server's service proxy proves the Service, the pod
 * network between the machines and the konnectivity tunnel together.
 */
import type { KubeManifest } from '../../api/manifest.ts';

/** Where the workload lives and how it is reached. */
export const WEB = {
  name: 'web',
  namespace: 'default',
  replicas: 2,
  /** `kubectl get --raw` through the hosted API server's service proxy; the answer is `OK`. */
  proxyPath: '/api/v1/namespaces/default/services/web:http/proxy/health',
} as const;

/** The ConfigMap, Deployment and Service of the workload, running `image` (a CoreDNS image). */
export function webObjects(image: string): KubeManifest[] {
  const labels = { app: WEB.name };
  const metadata = { name: WEB.name, namespace: WEB.namespace };
  return [
    // lameduck: a replica told to stop keeps answering for 5 s, while the routers learn that it is going.
    { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { Corefile: '.:1053 {\n    health :8080 {\n        lameduck 5s\n    }\n    whoami\n}\n' } },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata,
      spec: {
        replicas: WEB.replicas,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: labels }, topologyKey: 'kubernetes.io/hostname' }] } },
            containers: [
              {
                name: WEB.name,
                image,
                args: ['-conf', '/etc/web/Corefile'],
                ports: [{ containerPort: 8080 }],
                readinessProbe: { httpGet: { path: '/health', port: 8080 } },
                volumeMounts: [{ name: 'conf', mountPath: '/etc/web' }],
              },
            ],
            volumes: [{ name: 'conf', configMap: { name: WEB.name } }],
          },
        },
      },
    },
    { apiVersion: 'v1', kind: 'Service', metadata, spec: { selector: labels, ports: [{ name: 'http', port: 8080, targetPort: 8080 }] } },
  ];
}

/**
 * The workload's Ingress at `web.<apps domain>`: the hosted cluster's ingress controller serves it (over HTTPS with
 * its default certificate), and the default-ingress passthrough carries it from the infrastructure's router.
 */
export function webIngress(appsDomain: string): KubeManifest {
  const backend = { service: { name: WEB.name, port: { name: 'http' } } };
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: { name: WEB.name, namespace: WEB.namespace },
    spec: { rules: [{ host: `${WEB.name}.${appsDomain}`, http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }] },
  };
}

// `hcp-operator ignition-server`: the ignition endpoint of one control plane, run as a component in its namespace.
// It caches the namespace's control-plane Secrets (token Secrets, root CA, pull secret, SSH key) with one watch and
// answers machines from that cache, so a request costs no API call.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { KubeObject } from '../kube/client.ts';
import { managementClient } from '../kube/kubeconfig.ts';
import { realClock } from '../runtime/clock.ts';
import { Informer } from '../runtime/informer.ts';
import { jsonLogger, type LogLevel } from '../runtime/logger.ts';
import { CONTROL_PLANE_SECRET_LABEL } from '../render/hostedcluster/names.ts';
import { TokenSecretAnnotation } from '../render/nodepool/bootstrap.ts';
import type { SecretData } from './payload.ts';
import { createIgnitionServer } from './server.ts';

export const IGNITION_SERVER_USAGE = `Usage: hcp-operator ignition-server [flags]

Serves GET /ignition to machines presenting a NodePool token of this control plane.

Flags:
  --namespace string        The control-plane namespace (default: POD_NAMESPACE)
  --listen string           HTTPS listen address (default ":9090")
  --cert-file string        Serving certificate (PEM)
  --key-file string         Its private key (PEM)
  --api-server-url string   https://host:port of the hosted API server as machines reach it
  --cluster-dns string      The hosted cluster's DNS Service address
  --cluster-domain string   The hosted cluster's DNS domain (default "cluster.local")
  --sandbox-image string    The release's pause image
  --kubeconfig string       Management cluster kubeconfig (default: in-cluster)
  --log-level string        debug, info or error (default "info")
`;

const FLAGS = {
  namespace: { type: 'string', default: '' },
  listen: { type: 'string', default: ':9090' },
  'cert-file': { type: 'string', default: '' },
  'key-file': { type: 'string', default: '' },
  'api-server-url': { type: 'string', default: '' },
  'cluster-dns': { type: 'string', default: '' },
  'cluster-domain': { type: 'string', default: 'cluster.local' },
  'sandbox-image': { type: 'string', default: '' },
  kubeconfig: { type: 'string', default: '' },
  'log-level': { type: 'string', default: 'info' },
} as const;

/** A flag problem: the caller prints it and exits 2. */
export class IgnitionServerUsageError extends Error {}

type Values = ReturnType<typeof parseArgs<{ options: typeof FLAGS; strict: true }>>['values'];

function checked(argv: string[], env: NodeJS.ProcessEnv): Values {
  let values: Values;
  try {
    values = parseArgs({ args: argv, options: FLAGS, strict: true }).values;
  } catch (error) {
    throw new IgnitionServerUsageError(error instanceof Error ? error.message : String(error));
  }
  const namespace = values.namespace === '' ? (env['POD_NAMESPACE'] ?? '') : values.namespace;
  const problems = [
    namespace === '' ? '--namespace is required (or POD_NAMESPACE)' : '',
    ...(['cert-file', 'key-file', 'cluster-dns', 'sandbox-image'] as const).map((flag) => (values[flag] === '' ? `--${flag} is required` : '')),
    /^https:\/\/[^/]+$/.test(values['api-server-url']) ? '' : `invalid --api-server-url "${values['api-server-url']}": want https://host:port`,
    /^(.*):(\d+)$/.test(values.listen) ? '' : `invalid --listen "${values.listen}": want [host]:port`,
    ['debug', 'info', 'error'].includes(values['log-level']) ? '' : `invalid --log-level "${values['log-level']}": want debug, info or error`,
  ].filter((line) => line !== '');
  if (problems.length > 0) throw new IgnitionServerUsageError(problems.join('\n'));
  return { ...values, namespace };
}

/** Runs the endpoint until SIGTERM/SIGINT; resolves with the exit code. */
export async function runIgnitionServer(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const values = checked(argv, env);
  const logger = jsonLogger({ write: (line) => process.stdout.write(line), now: () => Date.now(), level: values['log-level'] as LogLevel });
  const client = managementClient(values.kubeconfig, env);
  const secrets = new Informer<KubeObject & SecretData>(client, { apiVersion: 'v1', kind: 'Secret', namespace: values.namespace, labelSelector: `${CONTROL_PLANE_SECRET_LABEL.key}=${CONTROL_PLANE_SECRET_LABEL.value}` }, { clock: realClock, logger });
  secrets.start();
  await secrets.waitForSync();
  const server = createIgnitionServer({
    tls: { cert: readFileSync(values['cert-file'], 'utf8'), key: readFileSync(values['key-file'], 'utf8') },
    sources: {
      secrets: () => secrets.list(),
      secret: (name) => secrets.get(`${values.namespace}/${name}`),
      settings: { apiServerURL: values['api-server-url'], clusterDNS: values['cluster-dns'], clusterDomain: values['cluster-domain'], sandboxImage: values['sandbox-image'] },
      now: () => new Date(realClock.now()),
    },
    logger,
    markReached: async (match) => {
      await client.mergePatch({ apiVersion: 'v1', kind: 'Secret', namespace: values.namespace, name: match.secret.metadata?.name ?? '' }, { metadata: { annotations: { [TokenSecretAnnotation.IgnitionReached]: 'True' } } });
    },
  });
  const [, host = '', port = '9090'] = /^(.*):(\d+)$/.exec(values.listen) ?? [];
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(Number(port), host === '' ? undefined : host, resolve);
  });
  logger.info('ignition server started', { namespace: values.namespace, listen: values.listen });
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  secrets.stop();
  await new Promise((resolve) => server.close(resolve));
  client.close();
  logger.info('ignition server stopped', {});
  return 0;
}

/**
 * The local environment's router as it runs: a daemon (`hcp local router`, started by `hcp local up`) that keeps
 * Traefik running on the host's loopback (HTTP on 80, TLS passthrough on 443) and feeds it the Routes of the
 * management cluster and of the infrastructure cluster, each under its own apps domain. The domains end in
 * `.localhost`, which curl and browsers resolve to the loopback without asking DNS (RFC 6761), so every name under
 * them reaches this router with no DNS server and no change to the host's resolver.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeClient } from '../../kube/client.ts';
import { realClock } from '../../runtime/clock.ts';
import { jsonLogger, type Logger } from '../../runtime/logger.ts';
import { toolDir, TRAEFIK } from '../binaries/tools.ts';
import { hasInfraCluster } from '../environment/infra-cluster.ts';
import { infraLayout, statePaths, type EnvironmentLayout } from '../environment/layout.ts';
import { ENTRY_POINTS } from './plan.ts';
import { startRouterController, type RouterTarget } from './router.ts';

/** The daemon's name (its log is `logs/router.log` in the state folder). */
export const ROUTER_DAEMON = 'router';

/** Where the router listens: the host's loopback, where `*.localhost` names lead; its health on OpenShift's router stats port. */
export const ROUTER_ADDRESSES = { http: { host: '127.0.0.1', port: 80 }, https: { host: '127.0.0.1', port: 443 }, health: { host: '127.0.0.1', port: 1936 } } as const;

/** A cluster's apps domain: `apps.<cluster name>.localhost` (`apps.hcp-local.localhost`, `apps.hcp-infra.localhost`). */
const appsDomainOfCluster = (layout: EnvironmentLayout): string => `apps.${layout.clusterName}.localhost`;

/** The folder of the proxy's dynamic configuration (its file provider watches it). */
const routerConfigDir = (layout: EnvironmentLayout): string => join(layout.stateDir, 'router');

/** Where the running router records the domains it serves (it learns its clusters at start). */
const servedFile = (layout: EnvironmentLayout): string => join(layout.stateDir, 'router.domains.json');

/** The domains the router should serve: the management cluster's, and the infrastructure cluster's when there is one. */
export const domainsToServe = (layout: EnvironmentLayout): string[] => routedLayouts(layout).map(appsDomainOfCluster);

/** The domains the running router serves, as it recorded them at start (none recorded: none). */
export const servedDomains = (layout: EnvironmentLayout): string[] => (existsSync(servedFile(layout)) ? (JSON.parse(readFileSync(servedFile(layout), 'utf8')) as string[]) : []);

const routedLayouts = (layout: EnvironmentLayout): EnvironmentLayout[] => [layout, ...(hasInfraCluster(layout) ? [infraLayout(layout)] : [])];

const address = (a: { host: string; port: number }): string => `${a.host}:${String(a.port)}`;

/** Traefik's flags: the two entry points and the health one, the watched configuration folder, and no calls home. */
function proxyArgs(configDir: string): string[] {
  return [
    '--global.checknewversion=false',
    '--global.sendanonymoususage=false',
    `--entrypoints.${ENTRY_POINTS.http}.address=${address(ROUTER_ADDRESSES.http)}`,
    `--entrypoints.${ENTRY_POINTS.https}.address=${address(ROUTER_ADDRESSES.https)}`,
    `--entrypoints.traefik.address=${address(ROUTER_ADDRESSES.health)}`,
    '--ping=true',
    `--providers.file.directory=${configDir}`,
    '--providers.file.watch=true',
    '--log.level=INFO',
    // One JSON line per entry, as the daemon's own lines.
    '--log.format=json',
  ];
}

/** Keeps the proxy running: started again a second after it exits, until the daemon stops. */
function superviseProxy(configDir: string, logger: Logger): () => void {
  let child: ChildProcess | undefined;
  let stopped = false;
  const start = (): void => {
    child = spawn(join(toolDir(TRAEFIK), 'traefik'), proxyArgs(configDir), { stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('exit', (code, signal) => {
      if (stopped) return;
      logger.info('proxy exited; starting it again in 1s', { code: code ?? '', signal: signal ?? '' });
      setTimeout(start, 1_000);
    });
  };
  start();
  return () => {
    stopped = true;
    child?.kill('SIGTERM');
  };
}

/** Runs the router until SIGTERM or SIGINT. */
export async function runRouter(layout: EnvironmentLayout): Promise<void> {
  const logger = jsonLogger({ write: (line) => process.stdout.write(line), now: () => Date.now(), level: 'info' });
  const clusters: RouterTarget[] = routedLayouts(layout).map((l) => ({ name: l.clusterName, domain: appsDomainOfCluster(l), client: KubeClient.fromKubeconfigFile(statePaths(l).kubeconfig) }));
  const configDir = routerConfigDir(layout);
  // The proxy's file provider gives up on a folder missing at its start.
  mkdirSync(configDir, { recursive: true });
  const stopController = startRouterController({ clusters, configFile: join(configDir, 'routes.yaml'), clock: realClock, logger });
  const stopProxy = superviseProxy(configDir, logger);
  writeFileSync(servedFile(layout), JSON.stringify(clusters.map((c) => c.domain)));
  logger.info('router started', { domains: clusters.map((c) => c.domain).join(','), https: address(ROUTER_ADDRESSES.https) });
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await stopController();
  stopProxy();
  for (const cluster of clusters) cluster.client.close();
}

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after } from 'node:test';
import { KubeClient } from '../../kube/client.ts';
import type { ClusterAccess } from '../../local/cluster/access.ts';
import { runProcess, type ProcessResult } from '../process.ts';
import { STATE_ENV, type EnvironmentState } from './environment.ts';

/** A cluster of the running test environment, as a test sees it. */
export interface TestCluster extends ClusterAccess {
  /** An admin client (system:masters). */
  readonly client: KubeClient;
  /** Creates a namespace unique to this test run, deleted after the test file. */
  namespace(prefix: string): Promise<string>;
  /** Runs the matching kubectl as admin. */
  runKubectl(args: readonly string[], options?: { kubeconfig?: string; input?: string }): Promise<ProcessResult>;
}

function testCluster(access: ClusterAccess): TestCluster {
  const client = KubeClient.fromKubeconfigFile(access.adminKubeconfig);
  const created: string[] = [];
  after(async () => {
    await Promise.all(created.map((name) => client.delete({ apiVersion: 'v1', kind: 'Namespace', name })));
    client.close();
  });
  return {
    ...access,
    client,
    async namespace(prefix: string): Promise<string> {
      const name = `${prefix}-${randomBytes(3).toString('hex')}`;
      await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
      created.push(name);
      return name;
    },
    runKubectl: (args, options) => runProcess(access.kubectl, [`--kubeconfig=${options?.kubeconfig ?? access.adminKubeconfig}`, ...args], { input: options?.input ?? '' }),
  };
}

let cached: Record<keyof EnvironmentState, TestCluster> | undefined;

/** The clusters started by the global setup; fails clearly when run outside the integration tier. */
export function testClusters(): Record<keyof EnvironmentState, TestCluster> {
  if (cached !== undefined) return cached;
  const file = process.env[STATE_ENV];
  if (file === undefined) throw new Error(`${STATE_ENV} is not set: run integration tests with ./dev test (or npm run test:integration)`);
  const state = JSON.parse(readFileSync(file, 'utf8')) as EnvironmentState;
  cached = { management: testCluster(state.management), infra: testCluster(state.infra), upstream: testCluster(state.upstream), guest: testCluster(state.guest) };
  return cached;
}

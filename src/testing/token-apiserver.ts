import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBinaries } from '../local/binaries/build.ts';
import { startCluster } from '../local/cluster/cluster.ts';

/** Who a bearer token authenticates as, as `kubectl auth whoami` reports it. */
export interface TokenIdentity {
  readonly username: string;
  readonly groups: readonly string[];
}

function whoAmI(kubectl: string, server: string, dir: string, token: string): TokenIdentity | undefined {
  const args = ['auth', 'whoami', '-o', 'json', `--server=${server}`, `--certificate-authority=${join(dir, 'ca.crt')}`, `--token=${token}`];
  const run = spawnSync(kubectl, args, { encoding: 'utf8', env: { ...process.env, KUBECONFIG: join(dir, 'none') } });
  if (run.status !== 0 && run.stderr.includes('Unauthorized')) return undefined;
  if (run.status !== 0) throw new Error(`kubectl auth whoami failed: ${run.stderr.trim()}`);
  const review = JSON.parse(run.stdout) as { status?: { userInfo?: { username?: string; groups?: string[] } } };
  return { username: review.status?.userInfo?.username ?? '', groups: review.status?.userInfo?.groups ?? [] };
}

/**
 * Starts a throwaway kube-apiserver (with etcd, no controller manager) that reads `tokenFile` with
 * `--token-auth-file`, exactly as a hosted control plane's API server does, and asks it with `kubectl auth whoami`
 * who each token is (undefined: refused as Unauthorized). Proves a rendered token file is one a real API server
 * accepts. Stops everything afterwards.
 */
export async function whoAreTokens(tokenFile: string, tokens: readonly string[]): Promise<Array<TokenIdentity | undefined>> {
  const dir = mkdtempSync(join(tmpdir(), 'hcp-token-check-'));
  const binaries = await ensureBinaries(() => undefined);
  const file = join(dir, 'tokens.csv');
  writeFileSync(file, tokenFile, { mode: 0o600 });
  const cluster = await startCluster({ name: 'token-check', dir: join(dir, 'cluster'), binaries, controllerManager: false, extraApiServerArgs: [`--token-auth-file=${file}`] });
  try {
    writeFileSync(join(dir, 'ca.crt'), cluster.caPem);
    return tokens.map((token) => whoAmI(cluster.kubectl, cluster.server, dir, token));
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

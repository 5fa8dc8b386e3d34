import { accessSync, constants } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ETCD_BINARY, ETCD_VERSION, KUBE_BINARIES, KUBE_VERSION, type BinaryName } from './versions.ts';

/** The environment variable that points at a folder with binaries the user already has. */
export const BINARIES_ENV = 'HCP_KUBE_BINARIES';

/** Where built binaries are cached, outside any checkout so fresh clones and CI reuse them. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const base = env['XDG_CACHE_HOME'] !== undefined && env['XDG_CACHE_HOME'] !== '' ? env['XDG_CACHE_HOME'] : join(homedir(), '.cache');
  return join(base, 'hcp-kubevirt');
}

/** The cache folder of one module's binaries: `kube/<k8s version>/` or `kube/etcd-<version>/`. */
export function cacheDirFor(binary: BinaryName, env: NodeJS.ProcessEnv = process.env): string {
  return binary === ETCD_BINARY ? join(cacheRoot(env), 'kube', `etcd-${ETCD_VERSION}`) : kubeCacheDir(KUBE_VERSION, env);
}

/** The cache folder of one Kubernetes release's binaries: `kube/<k8s version>/`. */
export const kubeCacheDir = (kubeVersion: string, env: NodeJS.ProcessEnv = process.env): string => join(cacheRoot(env), 'kube', kubeVersion);

/** Whether a file exists and may be executed by this process. */
export const isExecutable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** Folders searched for a binary, in order: the user's own, envtest's, then the cache. */
export function searchPath(binary: BinaryName, env: NodeJS.ProcessEnv = process.env): string[] {
  return [env[BINARIES_ENV], env['KUBEBUILDER_ASSETS'], cacheDirFor(binary, env)].filter(
    (d): d is string => d !== undefined && d !== '',
  );
}

/** The paths of every binary a cluster needs, with `undefined` for those not found anywhere. */
export type BinaryPaths = Record<BinaryName, string | undefined>;

/** Finds each binary in the search path. */
export function locateBinaries(env: NodeJS.ProcessEnv = process.env): BinaryPaths {
  const find = (name: BinaryName): string | undefined =>
    searchPath(name, env)
      .map((dir) => join(dir, name))
      .find(isExecutable);
  const names: BinaryName[] = [...KUBE_BINARIES, ETCD_BINARY];
  return Object.fromEntries(names.map((n) => [n, find(n)])) as BinaryPaths;
}

/** The binaries that could not be found. */
export function missingBinaries(paths: BinaryPaths): BinaryName[] {
  return (Object.keys(paths) as BinaryName[]).filter((n) => paths[n] === undefined);
}

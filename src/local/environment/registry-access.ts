/**
 * The registries the local environment pulls from: its own release registry (release-registry.ts) and, when `hcp local
 * up` is given them, a registry of the user's (`--registry-config`, `--registry-ca-file`) and a release published there
 * that the environment runs instead of its own (`--release-image`, see `hcp release build`). The user's choice is made
 * at the first `up` that names it and kept until `down`. The nodes, the KubeVirt stand-in, the operator and the hosted
 * clusters' workers pull with the merged credentials and trust the merged CAs, as a platform team's clusters pull from
 * their own registry.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseImageReference } from '../../release/image-reference.ts';
import { registryOfAuthsKey } from '../../release/registry-auth.ts';
import { writePrivate } from '../cluster/files.ts';
import { EnvironmentError } from './errors.ts';
import type { EnvironmentLayout, NodeLayout } from './layout.ts';
import { MIRRORED_REGISTRIES, nodePaths } from './node-config.ts';
import { releaseRegistryHost, releaseRegistryPaths } from './release-registry.ts';
import type { MachineBackendKind } from './state.ts';

/** The user's registry and release, as given to `up` (texts, not paths: the files are copied into the state folder). */
export interface UserRegistry {
  /** A release published with `hcp release build` (its payload, by tag or digest), run instead of the environment's. */
  readonly releaseImage?: string;
  /** A Docker config (`auths`) with the registry's credentials. */
  readonly config?: string;
  /** The PEM CA that signed the registry's certificate. */
  readonly ca?: string;
}

/** Where the user's choice and the merged credentials and CAs are kept. */
export function registryAccessPaths(layout: EnvironmentLayout): {
  readonly dir: string;
  readonly releaseImage: string;
  readonly config: string;
  readonly ca: string;
  /** The environment's credentials and the user's, in one `.dockerconfigjson`. */
  readonly pullSecret: string;
  /** The release registry's CA and the user's, in one PEM bundle. */
  readonly trustBundle: string;
} {
  const dir = join(layout.stateDir, 'registries');
  return {
    dir,
    releaseImage: join(dir, 'release-image'),
    config: join(dir, 'user-config.json'),
    ca: join(dir, 'user-ca.crt'),
    pullSecret: join(dir, 'pull-secret.json'),
    trustBundle: join(dir, 'trust-bundle.crt'),
  };
}

const readIfThere = (file: string): string | undefined => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);

/** What an earlier `up` of the environment in `layout` recorded; empty when it was given none. */
export function recordedUserRegistry(layout: EnvironmentLayout): UserRegistry {
  const paths = registryAccessPaths(layout);
  const [releaseImage, config, ca] = [readIfThere(paths.releaseImage)?.trim(), readIfThere(paths.config), readIfThere(paths.ca)];
  return { ...(releaseImage === undefined ? {} : { releaseImage }), ...(config === undefined ? {} : { config }), ...(ca === undefined ? {} : { ca }) };
}

const FLAGS: Record<keyof UserRegistry, string> = { releaseImage: '--release-image', config: '--registry-config', ca: '--registry-ca-file' };

/**
 * The user's registry `up` runs with (pure): what was recorded, with what this `up` adds. A recorded choice is kept:
 * changing it means `down` first, since running clusters and nodes were made with it. Refuses a CA without a registry
 * it is for, an unparseable release image, and a published release on process machines (they run this host's kubelet,
 * not the release's container disk).
 */
export function userRegistryForUp(recorded: UserRegistry, requested: UserRegistry, machineBackend: MachineBackendKind, stateDir: string): UserRegistry {
  refuseChanges(recorded, requested, stateDir);
  const chosen = { ...recorded, ...requested };
  if (chosen.ca !== undefined && chosen.config === undefined && chosen.releaseImage === undefined) {
    throw new EnvironmentError('--registry-ca-file needs --registry-config or --release-image: they name the registry the CA is for');
  }
  if (chosen.releaseImage !== undefined) checkPublishedRelease(chosen.releaseImage, machineBackend);
  return chosen;
}

/** Refuses a choice other than the recorded one. */
function refuseChanges(recorded: UserRegistry, requested: UserRegistry, stateDir: string): void {
  for (const key of Object.keys(FLAGS) as Array<keyof UserRegistry>) {
    const [was, now] = [recorded[key], requested[key]];
    if (was !== undefined && now !== undefined && was !== now) {
      throw new EnvironmentError(`the local environment in ${stateDir} runs with another ${FLAGS[key]} (kept until down): run hcp local down first to change it`);
    }
  }
}

/** Refuses a release image that does not parse, or one for process machines. */
function checkPublishedRelease(image: string, machineBackend: MachineBackendKind): void {
  try {
    parseImageReference(image);
  } catch (error) {
    throw new EnvironmentError(`invalid --release-image ${JSON.stringify(image)}: ${(error as Error).message}`);
  }
  if (machineBackend === 'process') {
    throw new EnvironmentError('--release-image needs --machine-backend vm: process machines run this host\'s kubelet, not the release\'s container disk');
  }
}

/** Keeps the user's choice in the state folder (the credentials readable by root only). */
export function recordUserRegistry(layout: EnvironmentLayout, registry: UserRegistry): void {
  const paths = registryAccessPaths(layout);
  mkdirSync(layout.stateDir, { recursive: true, mode: 0o700 });
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  if (registry.releaseImage !== undefined) writeFileSync(paths.releaseImage, `${registry.releaseImage}\n`);
  if (registry.config !== undefined) writePrivate(paths.config, registry.config);
  if (registry.ca !== undefined) writeFileSync(paths.ca, registry.ca);
}

/** The auths of a Docker config's text (none when it has none). */
function authsOf(config: string | undefined): Record<string, unknown> {
  if (config === undefined) return {};
  const auths = (JSON.parse(config) as { auths?: unknown }).auths;
  return typeof auths === 'object' && auths !== null ? (auths as Record<string, unknown>) : {};
}

/**
 * The hosts the user's CA is for (pure): the release image's registry and every registry of the user's config, but not
 * the registries the environment mirrors (node-config.ts): their `hosts.toml` sends pulls to the environment's own
 * registry first, and a CA entry written over it would cut the nodes off the images `up` publishes there.
 */
export function userRegistryHosts(registry: UserRegistry): string[] {
  const release = registry.releaseImage === undefined ? [] : [parseImageReference(registry.releaseImage).registry];
  const hosts = new Set([...release, ...Object.keys(authsOf(registry.config)).map(registryOfAuthsKey)]);
  return [...hosts].filter((host) => !(MIRRORED_REGISTRIES as readonly string[]).includes(host)).sort();
}

/**
 * Writes the merged credentials and CAs (from the release registry's files and the recorded choice); run after the
 * release registry's files exist, on every `up`.
 */
export function writeRegistryAccessFiles(layout: EnvironmentLayout): void {
  const paths = registryAccessPaths(layout);
  const own = releaseRegistryPaths(layout);
  const user = recordedUserRegistry(layout);
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  const auths = { ...authsOf(readFileSync(own.pullSecret, 'utf8')), ...authsOf(user.config) };
  writePrivate(paths.pullSecret, `${JSON.stringify({ auths })}\n`);
  writeFileSync(paths.trustBundle, [readFileSync(own.ca, 'utf8'), user.ca ?? ''].map((pem) => pem.trim()).filter((pem) => pem !== '').join('\n') + '\n');
}

/** `hosts.toml` of a registry spoken to over HTTPS, trusting the CA in `caFile` (pure). */
export function trustingHostsToml(host: string, caFile: string): string {
  const url = JSON.stringify(`https://${host}`);
  return [`server = ${url}`, '', `[host.${url}]`, '  capabilities = ["pull", "resolve"]', `  ca = ${JSON.stringify(caFile)}`, ''].join('\n');
}

/**
 * Lets a node of the management cluster pull from the environment's registries as a platform team's nodes pull from
 * theirs: each registry's CA in containerd's `hosts.toml`, the merged credentials in the kubelet's `config.json` (which
 * the kubelet hands to containerd for each pull). Pods then run images published there (`hcp release build`), the
 * operator's among them. Nothing for a cluster without registries (the infrastructure cluster).
 */
export function trustRegistries(layout: EnvironmentLayout, node: NodeLayout): void {
  const paths = registryAccessPaths(layout);
  if (!existsSync(paths.pullSecret)) return;
  const user = recordedUserRegistry(layout);
  const trusted = [
    { host: releaseRegistryHost(layout), ca: releaseRegistryPaths(layout).ca },
    ...(user.ca === undefined ? [] : userRegistryHosts(user).map((host) => ({ host, ca: paths.ca }))),
  ];
  const p = nodePaths(node);
  for (const { host, ca } of trusted) {
    mkdirSync(join(p.registryHosts, host), { recursive: true });
    writeFileSync(join(p.registryHosts, host, 'hosts.toml'), trustingHostsToml(host, ca));
  }
  mkdirSync(p.kubeletRoot, { recursive: true });
  writePrivate(join(p.kubeletRoot, 'config.json'), readFileSync(paths.pullSecret, 'utf8'));
}

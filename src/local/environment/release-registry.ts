/**
 * The environment's release registry: the CNCF distribution registry over TLS with a password, serving the
 * environment's release payload as quay.io serves OpenShift's. The operator reads the release from it as it would in
 * production: through a mirror (`--image-content-sources`), with the cluster's pull secret, trusting the registry's CA
 * (given to `hcp install --additional-trust-bundle`). The images the payload names stay in the node registry
 * (processes.ts), which containerd reaches without credentials.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { formatImageReference, parseImageReference } from '../../release/image-reference.ts';
import { kubernetesPayloadFiles } from '../../release/layout.ts';
import { RegistryClient } from '../../registry/client.ts';
import { publishPayload } from '../../registry/publish.ts';
import { Transport } from '../../registry/transport.ts';
import { issue, toPem } from '../cluster/certificates.ts';
import { asksForCredentials, distributionConfig, dockerConfigFor, htpasswdOf } from '../cluster/distribution.ts';
import { writePrivate } from '../cluster/files.ts';
import type { DaemonSpec } from './daemons.ts';
import type { EnvironmentLayout } from './layout.ts';
import { LOCAL_RELEASE_IMAGE, localRelease } from './local-images.ts';

/** The user the environment's pull secret authenticates as. */
const RELEASE_REGISTRY_USER = 'hcp-local';

/** {@link LOCAL_RELEASE_IMAGE}, parsed: its repository is the source the mirror stands in for. */
const RELEASE = parseImageReference(LOCAL_RELEASE_IMAGE);

/** The release registry's files, and the files hosted clusters of the environment are created with. */
export function releaseRegistryPaths(layout: EnvironmentLayout): {
  readonly dir: string;
  readonly ca: string;
  readonly config: string;
  /** A `.dockerconfigjson` with the registry's credentials: `hcp create cluster --pull-secret`. */
  readonly pullSecret: string;
  /** The mirror of the release repository: `hcp create cluster --image-content-sources`. */
  readonly imageContentSources: string;
} {
  const dir = join(layout.stateDir, 'release-registry');
  return {
    dir,
    ca: join(dir, 'ca.crt'),
    config: join(dir, 'config.yml'),
    pullSecret: join(layout.stateDir, 'pull-secret.json'),
    imageContentSources: join(layout.stateDir, 'image-content-sources.yaml'),
  };
}

/** `host:port` of the release registry. */
export const releaseRegistryHost = (layout: EnvironmentLayout): string => `${layout.hostAddress}:${String(layout.ports.releaseRegistry)}`;

/** The mirror repository of the environment's release (pure): the same repository path on the release registry. */
const releaseMirror = (layout: EnvironmentLayout): string => `${releaseRegistryHost(layout)}/${RELEASE.repository}`;

/** The registry's configuration (pure): TLS, htpasswd, blobs in the state folder. */
export const releaseRegistryConfig = (layout: EnvironmentLayout): string =>
  distributionConfig({ dir: releaseRegistryPaths(layout).dir, addr: releaseRegistryHost(layout), auth: { htpasswd: { realm: 'hcp-local' } } });

/** The image content sources file (pure): the release repository served by the environment's mirror. */
export const imageContentSourcesOf = (layout: EnvironmentLayout): string => stringify([{ source: formatImageReference({ registry: RELEASE.registry, repository: RELEASE.repository }), mirrors: [releaseMirror(layout)] }]);

/**
 * Makes the registry's CA, serving certificate, password (kept only in the pull secret; the registry holds its bcrypt
 * hash), configuration and the image content sources, unless a previous `up` did: clusters created with them keep
 * working across `up`s.
 */
export async function ensureReleaseRegistryFiles(layout: EnvironmentLayout): Promise<void> {
  const paths = releaseRegistryPaths(layout);
  const complete = join(paths.dir, '.complete');
  if (existsSync(complete)) return;
  mkdirSync(join(paths.dir, 'data'), { recursive: true });
  const ca = await issue({ commonName: `${layout.clusterName} release registry CA`, usage: 'ca', validDays: 365 });
  const serving = await toPem(await issue({ commonName: 'release-registry', usage: 'server', issuer: ca, ipAddresses: [layout.hostAddress], validDays: 365 }));
  writeFileSync(paths.ca, (await toPem(ca)).cert);
  writeFileSync(join(paths.dir, 'tls.crt'), serving.cert);
  writePrivate(join(paths.dir, 'tls.key'), serving.key);
  const password = randomBytes(24).toString('base64url');
  writeFileSync(join(paths.dir, 'htpasswd'), htpasswdOf({ [RELEASE_REGISTRY_USER]: password }));
  writePrivate(paths.pullSecret, `${dockerConfigFor(releaseRegistryHost(layout), RELEASE_REGISTRY_USER, password)}\n`);
  writeFileSync(paths.config, releaseRegistryConfig(layout));
  writeFileSync(paths.imageContentSources, imageContentSourcesOf(layout));
  writeFileSync(complete, '');
}

/** The registry daemon (distribution's `registry serve`); a soft memory limit, as for the node registry. */
export const releaseRegistryDaemon = (layout: EnvironmentLayout, registry: string): DaemonSpec => ({
  name: 'release-registry',
  command: [registry, 'serve', releaseRegistryPaths(layout).config],
  env: { GOMEMLIMIT: '32MiB' },
});

/** A readiness check of the registry (up, and asking for credentials), its CA read once for every poll. */
export function releaseRegistryReady(layout: EnvironmentLayout): () => Promise<boolean> {
  const ca = readFileSync(releaseRegistryPaths(layout).ca, 'utf8');
  return () => asksForCredentials(releaseRegistryHost(layout), ca);
}

/**
 * Publishes one of the environment's releases (its own by default; the previous minor's too) in our Kubernetes-native
 * layout (docs/releases.md) to the mirror, naming the images the node registry serves; returns its digest. Pushing the
 * same payload again changes nothing. Both share the release repository, so one mirror serves them.
 */
export async function publishLocalRelease(layout: EnvironmentLayout, image: string = LOCAL_RELEASE_IMAGE): Promise<string> {
  const release = localRelease(image);
  const paths = releaseRegistryPaths(layout);
  const transport = new Transport({ extraCA: readFileSync(paths.ca, 'utf8') });
  try {
    const client = new RegistryClient({ transport, pullSecret: readFileSync(paths.pullSecret, 'utf8') });
    const mirrored = { ...parseImageReference(image), registry: releaseRegistryHost(layout) };
    return (await publishPayload(client, mirrored, kubernetesPayloadFiles(release), { base: { 'etc/os-release': 'ID=hcp-local\n' } })).digest;
  } finally {
    transport.close();
  }
}

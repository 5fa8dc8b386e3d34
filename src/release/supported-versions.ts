/**
 * The OpenShift minor versions whose hosted clusters this release of hcp and the operator support, newest first
 * (the product manual's 4.17 support window: the current minor and the three before it).
 */
export const SUPPORTED_OCP_VERSIONS: readonly string[] = ['4.17', '4.16', '4.15', '4.14'];

/**
 * The Kubernetes minor versions of this project's Kubernetes-native releases the operator supports, newest first: the
 * two its control planes are built and tested with (the local environment's release and the one it upgrades from).
 */
export const SUPPORTED_KUBERNETES_VERSIONS: readonly string[] = ['1.36', '1.35'];

/** The newest supported release, as `hcp version` prints it. */
export const LATEST_SUPPORTED_OCP = '4.17.0';

/** Name, namespace and label of the ConfigMap the operator publishes its supported versions in (upstream's). */
export const SUPPORTED_VERSIONS_CONFIGMAP = { name: 'supported-versions', namespace: 'hypershift', label: 'hypershift.openshift.io/supported-versions' } as const;

/** The data of that ConfigMap. */
export function supportedVersionsData(serverVersion: string): Record<string, string> {
  return { 'supported-versions': JSON.stringify({ versions: SUPPORTED_OCP_VERSIONS }), 'server-version': serverVersion };
}

/** Reads the versions list out of the ConfigMap data; undefined when malformed. */
export function parseSupportedVersions(data: Readonly<Record<string, string>> | undefined): string[] | undefined {
  try {
    const parsed = JSON.parse(data?.['supported-versions'] ?? '') as { versions?: unknown };
    return Array.isArray(parsed.versions) && parsed.versions.every((v) => typeof v === 'string') ? (parsed.versions) : undefined;
  } catch {
    return undefined;
  }
}

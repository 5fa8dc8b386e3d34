/**
 * Untrusted kubeconfigs as text (a Secret's value, an upload): bounded, parsed with no YAML aliases, then checked by
 * `lib/inline-kubeconfig.ts`, which says what is refused and why; and the clients made from them. Kept apart from
 * `client.ts`, so that the control planes' lean programs, which use that client in-cluster, carry no YAML parser.
 */
import { parse } from 'yaml';
import { checkedEntries, inlineKubeconfigOf, untrustedProblemOf, UntrustedKubeconfigError, type InlineKubeconfig } from '../lib/inline-kubeconfig.ts';
import type { ClusterAuth } from './auth.ts';
import { KubeClient } from './client.ts';
import { TENANT_SERVER } from './rest.ts';

export { UntrustedKubeconfigError, type InlineKubeconfig } from '../lib/inline-kubeconfig.ts';

/** The largest kubeconfig read (a Secret holds at most 1 MiB). */
const MAX_KUBECONFIG_BYTES = 1024 * 1024;

/** The parsed text of an untrusted kubeconfig: at most 1 MiB, no YAML aliases (which can blow a small text up). */
function parsed(text: string): unknown {
  if (Buffer.byteLength(text) > MAX_KUBECONFIG_BYTES) throw new UntrustedKubeconfigError('the kubeconfig is larger than 1 MiB');
  try {
    return parse(text, { maxAliasCount: 0 });
  } catch {
    throw new UntrustedKubeconfigError('the kubeconfig is not valid YAML');
  }
}

/** Parses and checks an untrusted kubeconfig for use; throws {@link UntrustedKubeconfigError}, safe to show. */
export const parseUntrustedKubeconfig = (text: string): InlineKubeconfig => inlineKubeconfigOf(parsed(text));

/**
 * Why a kubeconfig may not be handed on as it is (`hcp create kubeconfig`): an entry, any of them, that asks for more
 * than inline data. Unlike {@link untrustedKubeconfigProblem}, a kubeconfig with no usable context is no danger.
 */
export const handOutProblem = (text: string): string | undefined => untrustedProblemOf(() => checkedEntries(parsed(text)));

/** Why `text` is no acceptable untrusted kubeconfig, in words safe for a condition; undefined when it is one. */
export const untrustedKubeconfigProblem = (text: string): string | undefined => untrustedProblemOf(() => parseUntrustedKubeconfig(text));

/** How requests authenticate with an {@link InlineKubeconfig}: from its own data, touching no file and running nothing. */
export function inlineAuth(kubeconfig: InlineKubeconfig): ClusterAuth {
  return {
    getCurrentCluster: () => ({ server: kubeconfig.server }),
    applyToHTTPSOptions: (options) => {
      if (kubeconfig.caPem !== undefined) options.ca = kubeconfig.caPem;
      if (kubeconfig.clientCertificatePem !== undefined) options.cert = kubeconfig.clientCertificatePem;
      if (kubeconfig.clientKeyPem !== undefined) options.key = kubeconfig.clientKeyPem;
      if (kubeconfig.tlsServerName !== undefined) options.servername = kubeconfig.tlsServerName;
      options.rejectUnauthorized = !kubeconfig.insecureSkipTLSVerify;
      if (kubeconfig.token !== undefined) options.headers = { ...options.headers, authorization: `Bearer ${kubeconfig.token}` };
      return Promise.resolve();
    },
  };
}

/**
 * A client from a kubeconfig a tenant wrote (an infrastructure kubeconfig, a published admin kubeconfig): only its
 * inline data is used (no program, file, proxy or auth provider: those throw {@link UntrustedKubeconfigError}), and its
 * server's answers are bounded and never quoted ({@link TENANT_SERVER}).
 */
export const untrustedClient = (text: string): KubeClient => KubeClient.fromConfig(inlineAuth(parseUntrustedKubeconfig(text)), TENANT_SERVER);

/**
 * Kubeconfigs written by someone the reader must not trust: a HostedCluster's infrastructure kubeconfig, and the
 * published `<name>-admin-kubeconfig`, which its namespace's users may edit. client-node honours everything a
 * kubeconfig says, so such a file could make the operator (or an admin's `hcp`) run a program (`exec`), read a file
 * and send it (`token-file`, `client-key`, an auth-provider's cache), or go through a proxy. Here only inline data is
 * taken: the server, its CA, a bearer token, a client certificate and key. Everything else is refused by name. This
 * module checks a parsed document (pure, with no YAML parser: the CLI's start-up snapshot checks
 * `--infra-kubeconfig-file` with it); `kube/untrusted-kubeconfig.ts` parses text and makes clients.
 */
/** A kubeconfig that asks for something an untrusted one may not; the message names the field, never a value. */
export class UntrustedKubeconfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UntrustedKubeconfigError';
  }
}

/** What an untrusted kubeconfig's current context comes to. */
export interface InlineKubeconfig {
  readonly server: string;
  /** PEM. */
  readonly caPem?: string;
  readonly insecureSkipTLSVerify: boolean;
  readonly tlsServerName?: string;
  readonly token?: string;
  /** PEM. */
  readonly clientCertificatePem?: string;
  /** PEM. */
  readonly clientKeyPem?: string;
}

/** The fields of each entry that are taken, and the ones refused with the reason said. Anything else is refused as unknown. */
const CLUSTER_FIELDS = new Set(['server', 'certificate-authority-data', 'insecure-skip-tls-verify', 'tls-server-name', 'disable-compression', 'extensions']);
const USER_FIELDS = new Set(['token', 'client-certificate-data', 'client-key-data', 'extensions']);
const CONTEXT_FIELDS = new Set(['cluster', 'user', 'namespace', 'extensions']);
const TOP_FIELDS = new Set(['apiVersion', 'kind', 'clusters', 'users', 'contexts', 'current-context', 'preferences', 'extensions']);
const REFUSED: Readonly<Record<string, string>> = {
  exec: 'runs a program',
  'auth-provider': 'uses an auth provider, which reads and writes files',
  'token-file': 'names a file',
  tokenFile: 'names a file',
  'client-certificate': 'names a file',
  'client-key': 'names a file',
  'certificate-authority': 'names a file',
  'proxy-url': 'names a proxy',
  username: 'uses basic authentication',
  password: 'uses basic authentication',
  as: 'impersonates',
  'as-uid': 'impersonates',
  'as-groups': 'impersonates',
  'as-user-extra': 'impersonates',
};

type Entry = Record<string, unknown>;

const isEntry = (value: unknown): value is Entry => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Refuses any field of `entry` outside `allowed`, naming it (and why, for the known dangerous ones). */
function onlyFields(entry: Entry, allowed: ReadonlySet<string>, where: string): void {
  for (const field of Object.keys(entry)) {
    if (allowed.has(field)) continue;
    const why = REFUSED[field];
    throw new UntrustedKubeconfigError(why === undefined ? `${where} has the field "${field}", which is not accepted here` : `${where} ${why} ("${field}")`);
  }
}

const LISTS = [['clusters', 'cluster', CLUSTER_FIELDS], ['users', 'user', USER_FIELDS], ['contexts', 'context', CONTEXT_FIELDS]] as const;

/**
 * The kubeconfig, once every entry of every list is checked — not only the current context's: whoever is handed the
 * file may pick any of them (`kubectl --user`).
 */
export function checkedEntries(config: unknown): Entry {
  if (!isEntry(config)) throw new UntrustedKubeconfigError('the kubeconfig is not a YAML mapping');
  onlyFields(config, TOP_FIELDS, 'the kubeconfig');
  for (const [list, inner, allowed] of LISTS) {
    for (const entry of Array.isArray(config[list]) ? (config[list] as unknown[]) : []) {
      const name = isEntry(entry) && typeof entry['name'] === 'string' ? entry['name'] : '';
      const body = isEntry(entry) ? (entry[inner] ?? {}) : undefined;
      if (!isEntry(body)) throw new UntrustedKubeconfigError(`${inner} "${name}" is not an object`);
      onlyFields(body, allowed, `${inner} "${name}"`);
    }
  }
  return config;
}

/** The named entry of a list (`clusters`, `users`, `contexts`), its inner object checked to be one. */
function named(config: Entry, list: 'clusters' | 'users' | 'contexts', name: string, inner: 'cluster' | 'user' | 'context'): Entry {
  const entries = Array.isArray(config[list]) ? (config[list] as unknown[]) : [];
  const found = entries.find((e): e is Entry => isEntry(e) && e['name'] === name);
  if (found === undefined) throw new UntrustedKubeconfigError(`the kubeconfig names ${inner} "${name}" but has no such entry in ${list}`);
  const body = found[inner] ?? {};
  if (!isEntry(body)) throw new UntrustedKubeconfigError(`${inner} "${name}" is not an object`);
  return body;
}

/** The context used: `current-context`, or the only one when none is named (as a generated kubeconfig may have). */
function currentContextName(config: Entry): string {
  const current = config['current-context'];
  if (typeof current === 'string' && current !== '') return current;
  const contexts = Array.isArray(config['contexts']) ? (config['contexts'] as unknown[]) : [];
  const only = contexts.length === 1 && isEntry(contexts[0]) ? contexts[0]['name'] : undefined;
  if (typeof only === 'string') return only;
  throw new UntrustedKubeconfigError('the kubeconfig has no current-context');
}

/** A base64 field decoded to PEM text; refused when it is not base64 of a PEM block. */
function pemField(entry: Entry, field: string, where: string): string | undefined {
  const value = entry[field];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/=\s]*$/.test(value)) throw new UntrustedKubeconfigError(`${where} "${field}" is not base64`);
  const pem = Buffer.from(value, 'base64').toString('utf8');
  if (!pem.includes('-----BEGIN ')) throw new UntrustedKubeconfigError(`${where} "${field}" does not hold a PEM block`);
  return pem;
}

/** The bearer token, refused unless it is printable ASCII: it goes into a request header. */
function tokenField(user: Entry, where: string): string | undefined {
  const token = user['token'];
  if (token === undefined || token === '') return undefined;
  if (typeof token !== 'string' || !/^[\x21-\x7e]+$/.test(token)) throw new UntrustedKubeconfigError(`${where} "token" holds characters a bearer token cannot have`);
  return token;
}

/** The server URL, refused unless it is https (a token or key would otherwise cross the network in clear). */
function serverField(cluster: Entry, where: string): string {
  const server = cluster['server'];
  let url: URL;
  try {
    url = new URL(typeof server === 'string' ? server : '');
  } catch {
    throw new UntrustedKubeconfigError(`${where} has no valid "server" URL`);
  }
  if (url.protocol !== 'https:') throw new UntrustedKubeconfigError(`${where} "server" is not an https:// URL`);
  if (url.username !== '' || url.password !== '') throw new UntrustedKubeconfigError(`${where} "server" carries credentials in its URL`);
  return url.toString().replace(/\/$/, '');
}

const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } => (value === undefined ? {} : ({ [key]: value } as { [P in K]?: V }));

/**
 * The current context of an untrusted kubeconfig, already parsed, refusing anything but inline data (see the module's
 * comment). Throws {@link UntrustedKubeconfigError}, whose message is safe to show: it names fields, never their values.
 */
export function inlineKubeconfigOf(config: unknown): InlineKubeconfig {
  const entries = checkedEntries(config);
  const contextName = currentContextName(entries);
  const context = named(entries, 'contexts', contextName, 'context');
  const clusterName = typeof context['cluster'] === 'string' ? context['cluster'] : '';
  const userName = typeof context['user'] === 'string' ? context['user'] : '';
  const cluster = named(entries, 'clusters', clusterName, 'cluster');
  const user = userName === '' ? {} : named(entries, 'users', userName, 'user');
  const clusterWhere = `cluster "${clusterName}"`;
  const userWhere = `user "${userName}"`;
  const tlsServerName = cluster['tls-server-name'];
  return {
    server: serverField(cluster, clusterWhere),
    ...optional('caPem', pemField(cluster, 'certificate-authority-data', clusterWhere)),
    insecureSkipTLSVerify: cluster['insecure-skip-tls-verify'] === true,
    ...optional('tlsServerName', typeof tlsServerName === 'string' && tlsServerName !== '' ? tlsServerName : undefined),
    ...optional('token', tokenField(user, userWhere)),
    ...optional('clientCertificatePem', pemField(user, 'client-certificate-data', userWhere)),
    ...optional('clientKeyPem', pemField(user, 'client-key-data', userWhere)),
  };
}


/** The message of the {@link UntrustedKubeconfigError} `check` throws, safe for a condition; undefined when it throws none. */
export function untrustedProblemOf(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (error instanceof UntrustedKubeconfigError) return error.message;
    throw error;
  }
}

/** Why a parsed document is no acceptable untrusted kubeconfig; undefined when it is one. */
export const untrustedDocumentProblem = (config: unknown): string | undefined => untrustedProblemOf(() => inlineKubeconfigOf(config));

/**
 * Why a parsed document asks for more than inline data in any entry; unlike {@link untrustedDocumentProblem}, a
 * kubeconfig that is merely incomplete (no usable context) passes: that is for whoever uses it to say.
 */
export const unsafeEntriesProblem = (config: unknown): string | undefined => untrustedProblemOf(() => checkedEntries(config));

/**
 * The CNCF distribution registry as this project runs it (the local environment's release registry and the tests'
 * registry): a folder holding its TLS pair (`tls.crt`, `tls.key`), its credentials (`htpasswd`, or `token-ca.crt`
 * for token authentication) and its blobs (`data/`), and a configuration naming them.
 */
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { stringify } from 'yaml';
import { toBase64 } from '../../lib/base64.ts';
import { httpCall } from './http.ts';

/** How the registry authenticates: htpasswd (Basic), or tokens from a service whose signer `token-ca.crt` issued. */
export type DistributionAuth = { readonly htpasswd: { readonly realm: string } } | { readonly token: { readonly realm: string; readonly service: string; readonly issuer: string } };

/** Options of {@link distributionConfig}. */
export interface DistributionOptions {
  readonly dir: string;
  /** `host:port` to listen on. */
  readonly addr: string;
  readonly auth: DistributionAuth;
  /** A blob store base URL: layer downloads are answered with a redirect there (the redirect middleware). */
  readonly redirectTo?: string;
}

/** The registry's configuration (pure), JSON logs included. */
export function distributionConfig(o: DistributionOptions): string {
  const auth = 'htpasswd' in o.auth ? { htpasswd: { ...o.auth.htpasswd, path: join(o.dir, 'htpasswd') } } : { token: { ...o.auth.token, rootcertbundle: join(o.dir, 'token-ca.crt') } };
  return stringify({
    version: 0.1,
    log: { level: 'info', formatter: 'json' },
    storage: { filesystem: { rootdirectory: join(o.dir, 'data') } },
    http: { addr: o.addr, tls: { certificate: join(o.dir, 'tls.crt'), key: join(o.dir, 'tls.key') } },
    auth,
    ...(o.redirectTo === undefined ? {} : { middleware: { storage: [{ name: 'redirect', options: { baseurl: o.redirectTo } }] } }),
  });
}

/** htpasswd lines for `users` (name → password), bcrypt-hashed: the only scheme distribution accepts. */
export const htpasswdOf = (users: Readonly<Record<string, string>>): string =>
  Object.entries(users)
    .map(([user, password]) => `${user}:${bcrypt.hashSync(password, 10)}\n`)
    .join('');

/** A `.dockerconfigjson` holding one registry's credentials (a pull secret for it). */
export const dockerConfigFor = (host: string, username: string, password: string): string => JSON.stringify({ auths: { [host]: { auth: toBase64(`${username}:${password}`) } } });

/** Whether the registry at `host` answers its API root with 401: it is up, trusted with `ca`, and asks for credentials. */
export async function asksForCredentials(host: string, ca: string): Promise<boolean> {
  try {
    return (await httpCall(`https://${host}/v2/`, { tls: { ca }, timeoutMs: 1_000 })).status === 401;
  } catch {
    return false;
  }
}

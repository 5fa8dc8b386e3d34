/**
 * How a registry is authenticated to, pure part: the credentials a pull secret (`.dockerconfigjson`) holds for a
 * registry host, and the challenge a registry answers an anonymous request with (`WWW-Authenticate: Bearer realm=…,
 * service=…, scope=…` → fetch a token from the realm; `Basic realm=…` → send the credentials themselves).
 */
import { fromBase64 } from '../lib/base64.ts';
import { asRecord } from '../lib/objects.ts';

/** A user name and password (or token) for one registry. */
export interface RegistryCredentials {
  readonly username: string;
  readonly password: string;
}

/** A registry's authentication challenge. */
export type Challenge = { readonly scheme: 'bearer'; readonly realm: string; readonly service?: string; readonly scope?: string } | { readonly scheme: 'basic' };

/** The error of a pull secret that cannot be read, naming what is wrong (never its contents). */
export class PullSecretError extends Error {
  override readonly name = 'PullSecretError';
}

/** Docker Hub's key in a docker config (the legacy index URL), beside the host names the others use. */
const DOCKER_HUB_KEYS = ['docker.io', 'index.docker.io', 'registry-1.docker.io', 'https://index.docker.io/v1/'];

/** The host part of a docker config key (`https://quay.io/v2/` → `quay.io`). */
const hostOf = (key: string): string => key.replace(/^https?:\/\//, '').split('/')[0] ?? '';

/** The registry a docker config key is for, as image references name it (`https://index.docker.io/v1/` → `docker.io`). */
export const registryOfAuthsKey = (key: string): string => (DOCKER_HUB_KEYS.includes(key) || DOCKER_HUB_KEYS.includes(hostOf(key)) ? 'docker.io' : hostOf(key));

function credentialsOf(entry: Record<string, unknown>): RegistryCredentials | undefined {
  if (typeof entry['auth'] === 'string' && entry['auth'] !== '') {
    const decoded = fromBase64(entry['auth']);
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new PullSecretError('an "auth" entry of the pull secret is not base64 of user:password');
    return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  if (typeof entry['username'] === 'string' && typeof entry['password'] === 'string') return { username: entry['username'], password: entry['password'] };
  return undefined;
}

/** The credentials a pull secret holds for `registry` (a host, with its port if any); undefined when none. */
export function credentialsFor(pullSecret: string, registry: string): RegistryCredentials | undefined {
  let config: Record<string, unknown>;
  try {
    config = asRecord(JSON.parse(pullSecret) as unknown);
  } catch {
    throw new PullSecretError('the pull secret is not JSON (a .dockerconfigjson)');
  }
  const auths = asRecord(config['auths']);
  const keys = registry === 'docker.io' ? DOCKER_HUB_KEYS : [registry];
  const key = Object.keys(auths).find((k) => keys.includes(hostOf(k)) || keys.includes(k));
  return key === undefined ? undefined : credentialsOf(asRecord(auths[key]));
}

/** Parses a `WWW-Authenticate` header; undefined for a scheme this client does not speak. */
export function parseChallenge(header: string): Challenge | undefined {
  const match = /^\s*(\w+)\s*(.*)$/s.exec(header);
  const scheme = match?.[1]?.toLowerCase();
  if (scheme === 'basic') return { scheme: 'basic' };
  if (scheme !== 'bearer') return undefined;
  const params = new Map([...(match?.[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [(m[1] ?? '').toLowerCase(), m[2] ?? '']));
  const realm = params.get('realm') ?? '';
  if (realm === '') return undefined;
  const optional = Object.fromEntries(['service', 'scope'].flatMap((key) => (params.has(key) ? [[key, params.get(key)]] : []))) as { service?: string; scope?: string };
  return { scheme: 'bearer', realm, ...optional };
}

/** The token request URL of a bearer challenge, for pulling from `repository`. */
export function tokenURL(challenge: Extract<Challenge, { scheme: 'bearer' }>, repository: string): string {
  const url = new URL(challenge.realm);
  if (challenge.service !== undefined) url.searchParams.set('service', challenge.service);
  url.searchParams.set('scope', challenge.scope ?? `repository:${repository}:pull`);
  return url.toString();
}

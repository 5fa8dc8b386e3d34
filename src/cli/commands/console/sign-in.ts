/**
 * Who a console session acts as. With `--authentication-mode=kubeconfig`, every session acts as the kubeconfig's
 * user. With `token`, each user signs in with their own bearer token (`oc whoami -t`, `kubectl create token …`): the
 * API server must accept it (a SelfSubjectReview says whose it is), and the session then acts as that user only — its
 * watches and the `hcp` commands it runs go through a kubeconfig holding that token, written 0600 into a private
 * folder and removed when the session ends. The console itself holds no credentials.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DNS1123_LABEL } from '../../../api/schema/patterns.ts';
import { KubeClient } from '../../../kube/client.ts';
import { KubeApiError } from '../../../kube/errors.ts';
import type { ApiServerTarget } from '../../../kube/kubeconfig.ts';
import { toYaml } from '../../../lib/yaml.ts';
import { renderKubeconfig } from '../../../pki/kubeconfig.ts';
import type { ConsoleIdentity } from './actions.ts';
import { CollectionHub } from './collections.ts';

/** Who a session acts as, and the watches its pages share. */
export interface Principal {
  readonly client: KubeClient;
  readonly identity: ConsoleIdentity;
  readonly hub: CollectionHub;
  /** The user the API server knows the token by (token sign-in only). */
  readonly user?: string;
  /** Stops the watches and forgets the credentials. */
  close(): void;
}

/** The watches' options (tests shorten the retry delay). */
export interface HubOptions {
  readonly retryDelayMs?: number;
}

/** The principal of `--authentication-mode=kubeconfig`: the kubeconfig's user, shared by every session. */
export function kubeconfigPrincipal(client: KubeClient, identity: ConsoleIdentity, hub: HubOptions): Principal {
  const watches = new CollectionHub(client, hub);
  return { client, identity, hub: watches, close: () => watches.close() };
}

/** A sign-in the console refuses: its HTTP status, and the form field the message belongs to. */
export class SignInError extends Error {
  readonly status: number;
  readonly field: string;
  constructor(status: number, field: string, message: string) {
    super(message);
    this.name = 'SignInError';
    this.status = status;
    this.field = field;
  }
}

/** Printable ASCII without spaces: a bearer token, never a header or YAML of its own. */
const TOKEN = /^[\x21-\x7e]{1,16384}$/;
const NAMESPACE = new RegExp(`^(${DNS1123_LABEL})?$`);

/** What a sign-in form carries, checked. */
function signInForm(body: unknown): { token: string; namespace: string } {
  const { token, namespace } = (body ?? {}) as { token?: unknown; namespace?: unknown };
  const t = typeof token === 'string' ? token.trim() : '';
  if (!TOKEN.test(t)) throw new SignInError(422, 'token', 'paste a bearer token (oc whoami -t, or kubectl create token NAME): printable characters without spaces');
  const ns = typeof namespace === 'string' ? namespace.trim() : '';
  if (!NAMESPACE.test(ns) || ns.length > 63) throw new SignInError(422, 'namespace', 'a namespace is a lowercase DNS-1123 label (a-z, 0-9 and "-"), or empty for all you may read');
  return { token: t, namespace: ns };
}

/** A kubeconfig for `token` on the target API server. */
export const tokenKubeconfig = (target: ApiServerTarget, token: string, namespace: string): string =>
  toYaml(renderKubeconfig({ name: 'management', server: target.server, caPem: target.caPem, user: { token }, ...(namespace === '' ? {} : { namespace }) }));

/** Whose the token is, as the API server says; a refused token is a SignInError. */
async function reviewedUser(client: KubeClient): Promise<string> {
  try {
    const review = await client.create<{ apiVersion: string; kind: string; status?: { userInfo?: { username?: string } } }>({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    return review.status?.userInfo?.username ?? '(unknown user)';
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 401) throw new SignInError(401, 'token', 'the API server did not accept this token: it has expired, or it is not a token of this cluster');
    if (error instanceof KubeApiError && error.status === 403) throw new SignInError(403, 'token', `the API server refused this token a review of itself: ${error.message}`);
    throw new SignInError(502, 'form', `the API server did not answer the sign-in: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Where a token console keeps its sessions' kubeconfigs: a new 0700 folder, removed by {@link SessionFiles.remove}. */
export class SessionFiles {
  readonly dir = mkdtempSync(join(tmpdir(), 'hcp-console-'));

  /** Writes one session's kubeconfig, readable by this user only; its path. */
  write(text: string): string {
    const path = join(this.dir, `${randomUUID()}.kubeconfig`);
    writeFileSync(path, text, { mode: 0o600, flag: 'wx' });
    return path;
  }

  /** Removes the folder and what is left in it. */
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Signs a user in with their bearer token: the principal of their new session. */
export async function signIn(target: ApiServerTarget, body: unknown, files: SessionFiles, hub: HubOptions): Promise<Principal> {
  const { token, namespace } = signInForm(body);
  const text = tokenKubeconfig(target, token, namespace);
  const client = KubeClient.fromKubeconfigText(text);
  let user: string;
  let path: string;
  try {
    user = await reviewedUser(client);
    path = files.write(text);
  } catch (error) {
    client.close();
    throw error;
  }
  const watches = new CollectionHub(client, hub);
  const identity: ConsoleIdentity = { kubeconfig: path, env: {}, ...(namespace === '' ? {} : { namespace }) };
  return {
    client,
    identity,
    hub: watches,
    user,
    close: () => {
      watches.close();
      client.close();
      rmSync(path, { force: true });
    },
  };
}

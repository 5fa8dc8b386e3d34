import { createPrivateKey, randomBytes, sign, X509Certificate } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

/** A running token service: its realm URL, the requests it answered, and how to stop it. */
export interface TokenService {
  readonly realm: string;
  /** Each token request: the user it authenticated (undefined: none or refused) and the scopes asked for. */
  readonly issued: ReadonlyArray<{ readonly user: string | undefined; readonly scopes: readonly string[] }>;
  stop(): Promise<void>;
}

/** What the service signs with and who may ask. */
export interface TokenServiceOptions {
  readonly serving: { readonly cert: string; readonly key: string };
  /** The signing certificate (PEM) and its key: the registry trusts the CA that issued it. */
  readonly signer: { readonly cert: string; readonly key: string };
  readonly issuer: string;
  readonly service: string;
  readonly users: Readonly<Record<string, string>>;
}

const base64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

/** A JWT as the distribution registry verifies it: ES256, the signing certificate in `x5c`, the access granted. */
function token(options: TokenServiceOptions, user: string, scopes: readonly string[]): string {
  const der = new X509Certificate(options.signer.cert).raw.toString('base64');
  const now = Math.floor(Date.now() / 1000);
  const access = scopes.flatMap((scope) => {
    const [type, name, actions] = scope.split(':');
    return type === 'repository' && name !== undefined ? [{ type, name, actions: (actions ?? '').split(',').filter((a) => a !== '') }] : [];
  });
  const header = base64url(JSON.stringify({ alg: 'ES256', typ: 'JWT', x5c: [der] }));
  const claims = base64url(JSON.stringify({ iss: options.issuer, sub: user, aud: options.service, exp: now + 300, nbf: now - 10, iat: now, jti: randomBytes(8).toString('hex'), access }));
  const signature = sign('sha256', Buffer.from(`${header}.${claims}`), { key: createPrivateKey(options.signer.key), dsaEncoding: 'ieee-p1363' });
  return `${header}.${claims}.${base64url(signature)}`;
}

/** The user a Basic header names, when its password is right. */
function userOf(header: string | undefined, users: Readonly<Record<string, string>>): string | undefined {
  const match = /^Basic (.+)$/.exec(header ?? '');
  if (match === null) return undefined;
  const [user, ...rest] = Buffer.from(match[1] ?? '', 'base64').toString().split(':');
  return user !== undefined && users[user] === rest.join(':') ? user : undefined;
}

/**
 * A Docker token service for tests (the protocol registries such as quay.io and Docker Hub use): `GET ?service=&scope=`
 * with Basic credentials answers a signed token granting what was asked; without valid credentials, 401. Stands in
 * for a real authorization server, which none of the served modules provides.
 */
export async function startTokenService(options: TokenServiceOptions): Promise<TokenService> {
  const issued: Array<{ user: string | undefined; scopes: string[] }> = [];
  const server: Server = createServer({ cert: options.serving.cert, key: options.serving.key }, (req, res) => {
    const url = new URL(req.url ?? '/', 'https://token.invalid');
    const scopes = url.searchParams.getAll('scope');
    const user = userOf(req.headers.authorization, options.users);
    issued.push({ user, scopes });
    if (user === undefined || url.searchParams.get('service') !== options.service) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"details":"invalid credentials"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token: token(options, user, scopes), expires_in: 300, issued_at: new Date().toISOString() }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    realm: `https://127.0.0.1:${String(port)}/token`,
    issued,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

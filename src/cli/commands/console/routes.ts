/** What a signed-in page may ask: each route runs as the session's principal (actions.ts runs hcp commands as it). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HcpRunner } from '../../framework/command.ts';
import { capacityOf, checkPoolSize, createFromForm, destroyCluster, kubeconfigOf, renderForm, scaleNodePool, withPublishedAddress, type CapacityForm } from './actions.ts';
import { stream } from './event-stream.ts';
import { bodyOf, refuse, send, sendJson } from './http.ts';
import { asset, sessionAnswer } from './page.ts';
import type { Session } from './session.ts';
import type { ClusterForm } from './wizard.ts';

/** A Kubernetes object name in a path. */
const NAME = '[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?';

/** What a route acts as, and where it reports what fails after it answered. */
export interface Call {
  readonly session: Session;
  readonly report: (line: string) => void;
  readonly mode: 'kubeconfig' | 'token';
  readonly signOut: () => void;
  readonly hcp: HcpRunner;
}

type Route = (c: Call, match: RegExpMatchArray, request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** The API's routes: method, path, and what answers. */
const ROUTES: ReadonlyArray<[string, RegExp, Route]> = [
  ['POST', /^\/api\/sign-out$/, (c) => Promise.resolve(c.signOut())],
  ['GET', /^\/api\/session$/, (c, _m, _req, res) => Promise.resolve(sendJson(res, 200, sessionAnswer(c.session.principal, c.mode)))],
  [
    'POST',
    /^\/api\/render$/,
    async (c, _m, req, res) => {
      const form = await withPublishedAddress(c.session.principal.client, (await bodyOf(req)) as ClusterForm);
      sendJson(res, 200, 'ok' in form ? form : await renderForm(c.hcp, form));
    },
  ],
  [
    'POST',
    /^\/api\/clusters$/,
    async (c, _m, req, res) => {
      const form = await withPublishedAddress(c.session.principal.client, (await bodyOf(req)) as ClusterForm);
      const result = 'ok' in form ? form : await createFromForm(c.hcp, form, c.session.principal.identity);
      sendJson(res, result.ok ? 201 : 422, result);
    },
  ],
  [
    'POST',
    /^\/api\/capacity$/,
    async (c, _m, req, res) => {
      const result = await capacityOf(c.hcp, (await bodyOf(req)) as CapacityForm, c.session.principal.identity);
      sendJson(res, result.ok ? 200 : 422, result);
    },
  ],
  [
    'PUT',
    new RegExp(`^/api/nodepools/(${NAME})/(${NAME})/size$`),
    async (c, m, req, res) => {
      const { size, errors } = checkPoolSize(await bodyOf(req));
      if (size === undefined) return sendJson(res, 422, { errors });
      await scaleNodePool(c.session.principal.client, { namespace: m[1] ?? '', name: m[3] ?? '' }, size);
      sendJson(res, 200, { errors: [] });
    },
  ],
  [
    'DELETE',
    new RegExp(`^/api/clusters/(${NAME})/(${NAME})$`),
    async (c, m, req, res) => {
      const [namespace, name] = [m[1] ?? '', m[3] ?? ''];
      const { confirm } = ((await bodyOf(req)) ?? {}) as { confirm?: unknown };
      if (confirm !== name) return sendJson(res, 422, { errors: [{ field: 'confirm', message: `type the cluster's name, ${name}, to destroy it` }] });
      // The destroy waits for the cluster to go; the page sees that through its watch.
      void destroyCluster(c.hcp, namespace, name, c.session.principal.identity)
        .then((r) => r.errors.forEach((e) => c.report(`destroy ${namespace}/${name}: ${e.message}`)))
        .catch((error: unknown) => c.report(`destroy ${namespace}/${name}: ${error instanceof Error ? error.message : String(error)}`));
      sendJson(res, 202, { errors: [] });
    },
  ],
  [
    'GET',
    new RegExp(`^/api/kubeconfig/(${NAME})/(${NAME})$`),
    async (c, m, _req, res) => {
      const result = await kubeconfigOf(c.hcp, m[1] ?? '', m[3] ?? '', c.session.principal.identity);
      if (!result.ok) return sendJson(res, 404, result);
      send(res, 200, result.stdout, { 'content-type': 'application/yaml', 'content-disposition': `attachment; filename="${m[3] ?? 'cluster'}-kubeconfig.yaml"` });
    },
  ],
];

/** A signed-in request: the event stream, a route, or a file of the page. */
export async function dispatch(assetsDir: string, call: Call, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://console.invalid');
  if (request.method === 'GET' && url.pathname === '/api/stream') return stream(call.session, url, response);
  for (const [method, pattern, route] of ROUTES) {
    const match = url.pathname.match(pattern);
    if (match !== null && method === request.method) return route(call, match, request, response);
  }
  if (request.method === 'GET' && !url.pathname.startsWith('/api/')) return asset(response, assetsDir, url.pathname, sessionAnswer(call.session.principal, call.mode));
  refuse(response, { status: 404, message: `no ${request.method ?? ''} ${url.pathname}` });
}

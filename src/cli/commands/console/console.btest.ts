// The web console in headless Chromium against the real test clusters: `hcp console`'s server in-process with the
// admin's (or a limited user's) kubeconfig, the operator reconciling, and the tests playing the kubelet.
import { AxeBuilder } from '@axe-core/playwright';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { buildConsole } from '../../../../scripts/build-console.ts';
import { startConsoleServer, type ConsoleServer } from './server.ts';
import { KubeClient, type KubeDocument } from '../../../kube/client.ts';
import { createCertificateUser, createServiceAccountUser } from '../../../local/cluster/users.ts';
import { apiServerTarget } from '../../../kube/kubeconfig.ts';
import { browserSkipReason, launchBrowser } from '../../../testing/browser.ts';
import { inProcessHcp, runHcp } from '../../../testing/cli.ts';
import { markControlPlaneReady, markPodsReady } from '../../../testing/control-plane-kubelet.ts';
import { testClusters } from '../../../testing/envtest/clusters.ts';
import { eventually } from '../../../testing/eventually.ts';
import { installOperatorAccount, startOperatorAs, type TestOperator } from '../../../testing/operator.ts';
import { startTcpProxy, type TcpProxy } from '../../../testing/tcp-proxy.ts';

const skip = browserSkipReason();
const RELEASE = 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi';
const HOSTILE = '<img src=x onerror="document.title=\'pwned\'"><script>document.title=\'pwned\'</script>';
const API = 'hypershift.openshift.io/v1beta1';

describe('the web console', { skip }, () => {
  const management = testClusters().management;
  const admin = management.client;
  const assets = mkdtempSync(join(tmpdir(), 'hcp-console-'));
  const closers: Array<() => Promise<void>> = [];
  let ns: string;
  let browser: Browser;
  let page: Page;
  let console_: ConsoleServer;
  let operator: TestOperator | undefined;

  /** A console server as the user of `kubeconfig`, closed after the file. */
  const serve = async (kubeconfig: string, options: { namespace?: string; retryDelayMs?: number; port?: number; token?: string } = {}): Promise<ConsoleServer> => {
    const client = KubeClient.fromKubeconfigFile(kubeconfig);
    const server = await startConsoleServer({
      client,
      identity: { kubeconfig, env: {}, ...(options.namespace === undefined ? {} : { namespace: options.namespace }) },
      address: '127.0.0.1',
      port: options.port ?? 0,
      token: options.token ?? 'test-token-0123456789abcdef0123456789abcdef',
      assetsDir: assets,
      report: () => undefined,
      hcp: inProcessHcp,
      ...(options.retryDelayMs === undefined ? {} : { retryDelayMs: options.retryDelayMs }),
    });
    closers.push(async () => {
      await server.close();
      client.close();
    });
    return server;
  };
  /** A new page with a session on `server`. */
  const open = async (server: ConsoleServer): Promise<Page> => {
    const p = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await p.goto(server.url);
    return p;
  };
  /** With HCP_CONSOLE_SCREENSHOTS=DIR, a screenshot of the page for docs/console.md. */
  const shot = async (p: Page, name: string): Promise<void> => {
    const dir = process.env['HCP_CONSOLE_SCREENSHOTS'];
    if (dir !== undefined && dir !== '') await p.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
  };
  const axe = async (p: Page, what: string): Promise<void> => {
    const results = await new AxeBuilder({ page: p }).analyze();
    assert.deepEqual(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], `axe-core on ${what}`);
  };

  before(async () => {
    await buildConsole(assets);
    ns = await management.namespace('console');
    // Started here and stopped in this file's after(): startTestOperator's own after() would end it with this hook.
    operator = await startOperatorAs(await installOperatorAccount(management), ns);
    console_ = await serve(management.adminKubeconfig);
    browser = await launchBrowser();
    page = await open(console_);
  });
  after(async () => {
    await browser?.close();
    for (const close of closers.reverse()) await close();
    await operator?.operator.stop();
    operator?.client.close();
    rmSync(assets, { recursive: true, force: true });
  });

  it('When opened with the token, it should start a session, drop the token from the address, and refuse requests without the session, from another Host or without its header', async () => {
    assert.equal(new URL(page.url()).search, '', 'the token is gone from the address');
    await page.getByRole('heading', { name: 'Hosted clusters' }).waitFor();
    const base = console_.url.replace(/\/\?token=.*$/, '');
    assert.equal((await fetch(`${base}/`)).status, 401, 'no cookie');
    const cookie = (await page.context().cookies())[0];
    assert.deepEqual([cookie?.httpOnly, cookie?.sameSite], [true, 'Strict']);
    const withCookie = { cookie: `${cookie?.name ?? ''}=${cookie?.value ?? ''}` };
    assert.equal((await fetch(`${base}/api/render`, { method: 'POST', headers: withCookie, body: '{}' })).status, 403, 'no CSRF header');
    // fetch() may not set Host: a raw request, as a page on a rebinding name would send it.
    const rebinding = await new Promise<number>((resolve, reject) => {
      request(`${base}/`, { headers: { ...withCookie, host: `evil.example:${String(console_.port)}` } }, (r) => resolve(r.statusCode ?? 0)).on('error', reject).end();
    });
    assert.equal(rebinding, 421, 'another Host');
    const headers = (await fetch(`${base}/`, { headers: withCookie })).headers;
    assert.match(headers.get('content-security-policy') ?? '', /script-src 'self'/);
  });

  it('When the wizard is filled in, it should refuse a bad form at its fields, then create the cluster, which becomes Available live', async () => {
    await page.getByRole('link', { name: 'Create cluster' }).first().click();
    await page.getByLabel('Cluster name').fill('Bad_Name');
    await page.getByLabel('Namespace').fill(ns);
    await page.getByLabel('Release image').fill(RELEASE);
    await axe(page, 'the wizard');
    await shot(page, 'create-details');
    const wizardButton = (name: string): ReturnType<Page['getByRole']> => page.locator('.wizard-buttons').getByRole('button', { name });
    for (const step of ['Next', 'Next', 'Next', 'Review']) await wizardButton(step).click();
    await page.getByText(/failed RFC1123 validation/).waitFor();
    assert.equal(await wizardButton('Create').isDisabled(), true, 'an invalid form cannot be created');
    await page.getByRole('button', { name: 'Cluster details (has problems)' }).click();
    await page.getByText('--pull-secret is required').waitFor();
    await page.getByLabel('Cluster name').fill('web');
    await page.getByRole('textbox', { name: 'Pull secret' }).fill('{"auths":{}}');
    await page.getByRole('textbox', { name: 'SSH public key' }).fill('ssh-ed25519 AAAA test');
    await page.getByRole('list', { name: 'Steps' }).getByRole('button', { name: 'Review' }).click();
    await page.getByText('kind: HostedCluster').first().waitFor();
    await axe(page, 'the review');
    await shot(page, 'create-review');
    await wizardButton('Create').click();
    await page.waitForURL(`**/clusters/${ns}/web`);
    await markControlPlaneReady(admin, `${ns}-web`, 'web');
    await eventually('Available on the page', async () => {
      await markPodsReady(admin, `${ns}-web`);
      return (await page.locator('.summary .badge-true').count()) === 1 ? true : undefined;
    }, 30_000);
    await axe(page, 'the cluster page');
    await shot(page, 'cluster');
    await page.getByRole('link', { name: 'Clusters', exact: true }).click();
    const row = page.getByRole('row', { name: /web/ });
    await row.getByText('Available: Yes').waitFor();
    await axe(page, 'the cluster list');
    await shot(page, 'clusters');
  });

  it('When a pool is scaled or given autoscaling bounds on the page, the NodePool should change and the page follow', async () => {
    await page.goto(console_.url.replace(/\/\?token=.*$/, `/clusters/${ns}/web`));
    const pool = page.getByRole('article', { name: 'web' });
    await pool.getByLabel('Replicas').fill('3');
    await pool.getByRole('button', { name: 'Save size' }).click();
    await pool.getByText('0/3 nodes').waitFor();
    const ref = { apiVersion: API, kind: 'NodePool', name: 'web', namespace: ns };
    assert.equal((await admin.get<KubeDocument & { spec: { replicas?: number } }>(ref)).spec.replicas, 3);
    await pool.getByLabel('Autoscaling').check();
    await pool.getByLabel('Maximum').fill('0');
    await pool.getByRole('button', { name: 'Save size' }).click();
    await pool.getByText('the maximum must be a whole number no smaller than the minimum').waitFor();
    await pool.getByLabel('Maximum').fill('4');
    await pool.getByRole('button', { name: 'Save size' }).click();
    await pool.getByText('autoscaling 1–4').waitFor();
    assert.deepEqual((await admin.get<KubeDocument & { spec: { autoScaling?: object; replicas?: number } }>(ref)).spec.autoScaling, { min: 1, max: 4 });
  });

  it('When the kubeconfig is downloaded, it should be what hcp create kubeconfig prints', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download kubeconfig' }).click()]);
    const content = await readFile(await download.path(), 'utf8');
    const cli = await runHcp(['create', 'kubeconfig', `--kubeconfig=${management.adminKubeconfig}`, `--namespace=${ns}`, '--name=web'], { realClock: true });
    assert.equal(cli.code, 0, cli.stderr);
    assert.equal(content, cli.stdout);
    assert.equal(download.suggestedFilename(), 'web-kubeconfig.yaml');
  });

  it('When the capacity page sizes workers typed in, it should chart what hcp capacity computes and count the clusters that exist; live without labelled workers it should say why', async () => {
    await page.getByRole('link', { name: 'Capacity' }).click();
    await page.getByRole('button', { name: 'Size' }).click();
    await page.getByText(/no node of the management cluster is labelled hypershift\.openshift\.io\/control-plane/).waitFor();
    await page.getByLabel('Workers I describe').check();
    await page.getByRole('button', { name: 'Size' }).click();
    const cli = await runHcp(['capacity', '--workers=3', '--vcpu=16', '--memory=64', '--output=json']);
    const columns = (JSON.parse(cli.stdout) as { columns: Array<{ name: string; estimate: { maxHostedControlPlanes: number } }> }).columns;
    for (const c of columns) {
      const max = c.estimate.maxHostedControlPlanes;
      await page.getByText(`${c.name}: at most ${String(max)} control planes; ${String(Math.max(0, max - 1))} more fit`).waitFor();
    }
    await axe(page, 'the capacity page');
    await shot(page, 'capacity');
  });

  it('When names, reasons and messages carry markup, the page should show it as text and run none of it', async () => {
    await page.goto(console_.url.replace(/\/\?token=.*$/, `/clusters/${ns}/web`));
    await admin.create({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'web.hostile', namespace: ns }, involvedObject: { kind: 'HostedCluster', name: 'web', namespace: ns }, reason: `Bad${HOSTILE}`, message: HOSTILE, type: 'Warning' });
    await page.getByText(HOSTILE, { exact: true }).waitFor();
    assert.equal(await page.locator('main img, main script').count(), 0);
    assert.notEqual(await page.title(), 'pwned');
    await page.getByRole('link', { name: 'Clusters', exact: true }).click();
    await page.getByRole('searchbox').fill(HOSTILE);
    await page.getByText('0 of 1 clusters').waitFor();
    assert.notEqual(await page.title(), 'pwned');
  });

  it('When a user may read clusters in one namespace only, the console should show that namespace and say "forbidden" where they may not look', async () => {
    await admin.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'cluster-reader', namespace: ns }, rules: [{ apiGroups: ['hypershift.openshift.io'], resources: ['hostedclusters', 'nodepools'], verbs: ['get', 'list', 'watch'] }] });
    await admin.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'cluster-reader', namespace: ns }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cluster-reader' }, subjects: [{ kind: 'User', name: 'reader', apiGroup: 'rbac.authorization.k8s.io' }] });
    const reader = await createCertificateUser(management, { name: 'reader', namespace: ns });
    const limited = await open(await serve(reader.kubeconfig, { namespace: ns }));
    await limited.waitForURL(`**/?namespace=${ns}`);
    await limited.getByRole('row', { name: /web/ }).waitFor();
    await limited.getByRole('link', { name: 'web' }).click();
    await limited.getByText(`forbidden: you may not list Pod in namespace ${ns}-web`).waitFor();
    await limited.getByRole('heading', { name: 'Conditions' }).waitFor();
    const pool = limited.getByRole('article', { name: 'web' });
    await pool.getByLabel('Autoscaling').uncheck();
    await pool.getByLabel('Replicas').fill('1');
    await pool.getByRole('button', { name: 'Save size' }).click();
    await pool.getByText(/forbidden/).waitFor();
    await axe(limited, 'a limited user\'s cluster page');
    await shot(limited, 'limited-user');
    await limited.context().close();
  });

  it('When the API server or the console goes away, the page should say it is reconnecting, keep what it shows, and catch up when it is back', async () => {
    let proxy: TcpProxy = await startTcpProxy(new URL(management.server));
    const kubeconfig = join(assets, 'proxied.kubeconfig');
    await writeFile(kubeconfig, (await readFile(management.adminKubeconfig, 'utf8')).replace(management.server, `https://127.0.0.1:${String(proxy.port)}`));
    const proxiedConsole = await serve(kubeconfig, { retryDelayMs: 200 });
    const proxied = await open(proxiedConsole);
    await proxied.getByRole('row', { name: /web/ }).waitFor();
    const port = proxy.port;
    await proxy.close();
    await proxied.getByRole('alert').getByText(/lost the API server; reconnecting/).first().waitFor({ timeout: 20_000 });
    assert.equal(await proxied.getByRole('row', { name: /web/ }).count(), 1, 'what it showed stays');
    await shot(proxied, 'reconnecting');
    await admin.mergePatch({ apiVersion: API, kind: 'HostedCluster', name: 'web', namespace: ns }, { metadata: { labels: { reconnected: 'yes' } } });
    proxy = await startTcpProxy(new URL(management.server), port);
    closers.push(() => proxy.close());
    await proxied.getByRole('alert').first().waitFor({ state: 'detached', timeout: 20_000 });
    await proxied.getByRole('searchbox').fill('reconnected=yes');
    await proxied.getByText('1 of 1 clusters').waitFor();
    // The console itself goes away and comes back on its port.
    await proxiedConsole.close();
    await proxied.getByText('Reconnecting to the console…').waitFor();
    const again = await serve(kubeconfig, { port: proxiedConsole.port });
    await proxied.getByText('Reconnecting to the console…').waitFor({ state: 'detached', timeout: 20_000 });
    await proxied.getByRole('row', { name: /web/ }).waitFor();
    // Started again with a new token, the console knows no session: the page says to open the new URL.
    await again.close();
    await serve(kubeconfig, { port: proxiedConsole.port, token: 'another-token-0123456789abcdef0123456789' });
    await proxied.getByText(/no longer knows this page's session/).waitFor({ timeout: 20_000 });
    await proxied.context().close();
  });

  it('When only the keyboard is used, it should skip to the content, reach every control in order and open a cluster with Enter', async () => {
    await page.goto(console_.url.replace(/\/\?token=.*$/, '/'));
    // The controls the test tabs through, the cluster's link included, are drawn once the list has arrived.
    await page.getByRole('row', { name: /web/ }).waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { textContent: string } } }).document.activeElement.textContent), 'Skip to content');
    await page.keyboard.press('Enter');
    assert.match(page.url(), /#main$/);
    const focusedName = (): Promise<string> => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { textContent: string; getAttribute(n: string): string | null } } }).document.activeElement.textContent.trim());
    const order: string[] = [];
    for (let i = 0; i < 8 && !order.includes('web'); i++) {
      await page.keyboard.press('Tab');
      order.push(await focusedName());
    }
    assert.equal(order[0], 'Create cluster', `the page's first control after the skip: ${order.join(' → ')}`);
    assert.equal(order.at(-1), 'web', `the cluster's link is reached: ${order.join(' → ')}`);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/clusters/${ns}/web`);
  });

  it('When the cluster\'s name is typed to confirm, it should be destroyed and leave the list', async () => {
    await page.goto(console_.url.replace(/\/\?token=.*$/, `/clusters/${ns}/web`));
    const confirm = page.getByLabel(/to destroy this cluster/);
    await confirm.fill('we');
    assert.equal(await page.getByRole('button', { name: 'Destroy cluster' }).isDisabled(), true);
    await confirm.fill('web');
    await page.getByRole('button', { name: 'Destroy cluster' }).click();
    await page.getByText(/No hosted cluster .*: it was destroyed/).waitFor({ timeout: 60_000 });
    assert.equal(await admin.tryGet({ apiVersion: API, kind: 'HostedCluster', name: 'web', namespace: ns }), undefined);
  });

  it('When the console holds no credentials (hcp install --console), a user should sign in with their own token, act as themselves, and sign out', async () => {
    const apiServer = apiServerTarget(management.adminKubeconfig, {}, { read: (path) => readFileSync(path, 'utf8'), inCluster: '' });
    const server = await startConsoleServer({ signIn: { apiServer, allowedHosts: [] }, address: '127.0.0.1', port: 0, assetsDir: assets, report: () => undefined, hcp: inProcessHcp });
    closers.push(() => server.close());
    const viewer = await createServiceAccountUser(management, { namespace: ns, name: 'console-viewer' });
    const token = (parse(readFileSync(viewer.kubeconfig, 'utf8')) as { users: Array<{ user: { token: string } }> }).users[0]?.user.token ?? '';
    const p = await open(server);
    await p.getByRole('heading', { name: 'Sign in' }).waitFor();
    await axe(p, 'the sign-in page');
    await shot(p, 'sign-in');
    await p.getByLabel('Bearer token').fill('not-a-token-of-this-cluster');
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByText(/did not accept this token/).waitFor();
    assert.equal(await p.getByLabel('Bearer token').getAttribute('aria-invalid'), 'true');
    await p.getByLabel('Bearer token').fill(token);
    await p.getByLabel('Namespace (optional)').fill(ns);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByText(`Signed in as ${viewer.userName}`).waitFor();
    // The account may not list clusters: the API server's refusal of that user, not an admin's view.
    await p.getByText(/forbidden: you may not list HostedCluster/).first().waitFor();
    await p.getByRole('button', { name: 'Sign out' }).click();
    await p.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal((await p.evaluate(async () => (await fetch('/api/session')).status)), 401);
  });
});

/**
 * The web console in the local environment, for real: the shipped `hcp console` with the environment's admin
 * kubeconfig, driven in headless Chromium. The wizard creates a SingleReplica cluster, whose real control plane
 * becomes Available on the page; the downloaded kubeconfig answers `kubectl get namespaces` from the hosted API
 * server; the page destroys the cluster.
 */
import { AxeBuilder } from '@axe-core/playwright';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { waitFor } from '../local/cluster/http.ts';
import type { EnvironmentLayout } from '../local/environment/layout.ts';
import { LOCAL_NODE_IMAGE, LOCAL_RELEASE_IMAGE } from '../local/environment/local-images.ts';
import { releaseRegistryPaths } from '../local/environment/release-registry.ts';
import { HCP_BIN, startArtifact } from './artifacts.ts';
import { launchBrowser } from './browser.ts';
import { runProcess } from './process.ts';

/** What the test needs of the environment. */
export interface ConsoleE2eContext {
  readonly stateDir: string;
  readonly layout: EnvironmentLayout;
  readonly kubectl: string;
}

const MINUTE = 60_000;

/** Fills the wizard for a SingleReplica cluster of the environment (its release, mirror and node image) with no workers. */
async function fillWizard(page: Page, layout: EnvironmentLayout, name: string): Promise<void> {
  const files = releaseRegistryPaths(layout);
  await page.getByLabel('Cluster name').fill(name);
  await page.getByLabel('Release image').fill(LOCAL_RELEASE_IMAGE);
  await page.getByRole('textbox', { name: 'Pull secret' }).fill(readFileSync(files.pullSecret, 'utf8'));
  await page.getByLabel('Control plane availability').selectOption('SingleReplica');
  const next = page.locator('.wizard-buttons').getByRole('button', { name: 'Next' });
  await next.click();
  await next.click();
  await page.getByLabel('Nodes').fill('0');
  await next.click();
  await page.getByLabel('Service publishing').selectOption('NodePort');
  await page.getByRole('textbox', { name: 'Image content sources' }).fill(readFileSync(files.imageContentSources, 'utf8'));
  await page.getByLabel('Boot image (container disk)').fill(LOCAL_NODE_IMAGE);
  await page.locator('.wizard-buttons').getByRole('button', { name: 'Review' }).click();
  await page.getByText('kind: HostedCluster').first().waitFor();
}

/** Runs the console's whole path against the environment; returns a line of figures for the log. */
export async function assertConsoleCreatesAndServes(ctx: ConsoleE2eContext, name = 'console'): Promise<string> {
  const console_ = startArtifact(HCP_BIN, ['console', '--port=0', `--kubeconfig=${join(ctx.stateDir, 'kubeconfig')}`]);
  const browser = await launchBrowser();
  try {
    await waitFor('hcp console to print its URL', () => Promise.resolve(/Console: (\S+)/.test(console_.stdout())), { timeoutMs: MINUTE, intervalMs: 100 });
    const url = /Console: (\S+)/.exec(console_.stdout())?.[1] ?? '';
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(url);
    await page.getByRole('link', { name: 'Create cluster' }).first().click();
    await fillWizard(page, ctx.layout, name);
    const started = Date.now();
    await page.locator('.wizard-buttons').getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(`**/clusters/clusters/${name}`);
    await page.locator('.summary .badge-true').waitFor({ timeout: 5 * MINUTE });
    const available = (Date.now() - started) / 1000;
    const axe = await new AxeBuilder({ page }).analyze();
    assert.deepEqual(axe.violations.map((v) => v.id), [], 'axe-core on a real cluster\'s page');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download kubeconfig' }).click()]);
    const namespaces = await runProcess(ctx.kubectl, [`--kubeconfig=${await download.path()}`, 'get', 'namespaces', '-o', 'name']);
    assert.equal(namespaces.code, 0, namespaces.stderr);
    assert.match(namespaces.stdout, /namespace\/kube-system/);
    await page.getByLabel(/to destroy this cluster/).fill(name);
    const destroying = Date.now();
    await page.getByRole('button', { name: 'Destroy cluster' }).click();
    await page.getByText(/No hosted cluster .*: it was destroyed/).waitFor({ timeout: 3 * MINUTE });
    const destroyed = (Date.now() - destroying) / 1000;
    return `console: wizard → Available on the page ${available.toFixed(1)}s, its kubeconfig answered kubectl get namespaces, destroyed from the page in ${destroyed.toFixed(1)}s`;
  } finally {
    await browser.close();
    assert.equal(await console_.stop('SIGINT'), 0, `hcp console ended badly: ${console_.stderr()}`);
  }
}

/** A service account of the management cluster bound to `cluster-admin`, its token, and its removal. */
async function adminAccount(kubectl: (args: readonly string[]) => Promise<string>, name: string): Promise<{ user: string; token: string; remove: () => Promise<void> }> {
  await kubectl(['create', 'serviceaccount', name, '-n', 'default']);
  await kubectl(['create', 'clusterrolebinding', name, '--clusterrole=cluster-admin', `--serviceaccount=default:${name}`]);
  const token = (await kubectl(['create', 'token', name, '-n', 'default', '--duration=1h'])).trim();
  const remove = async (): Promise<void> => {
    await kubectl(['delete', 'clusterrolebinding', name, '--ignore-not-found']);
    await kubectl(['delete', 'serviceaccount', name, '-n', 'default', '--ignore-not-found']);
  };
  return { user: `system:serviceaccount:default:${name}`, token, remove };
}

/**
 * The console `hcp install --console` deployed beside the operator (the operator image's `hcp-operator console`): it
 * rolls out, is reached through `kubectl port-forward` as the docs say, and a service account signs in with its token
 * and sees the clusters as itself; signing out ends the session. Returns a line of figures for the log.
 */
export async function assertInstalledConsoleSignsIn(ctx: ConsoleE2eContext): Promise<string> {
  const kubectl = async (args: readonly string[]): Promise<string> => {
    const run = await runProcess(ctx.kubectl, [`--kubeconfig=${join(ctx.stateDir, 'kubeconfig')}`, ...args]);
    assert.equal(run.code, 0, `kubectl ${args.join(' ')}: ${run.stderr}`);
    return run.stdout;
  };
  await kubectl(['rollout', 'status', 'deployment/hcp-console', '-n', 'hypershift', '--timeout=180s']);
  const account = await adminAccount(kubectl, 'console-e2e');
  const forward = startArtifact(ctx.kubectl, [`--kubeconfig=${join(ctx.stateDir, 'kubeconfig')}`, 'port-forward', '-n', 'hypershift', 'service/hcp-console', ':7480']);
  const browser = await launchBrowser();
  try {
    await waitFor('kubectl port-forward to listen', () => Promise.resolve(/Forwarding from 127\.0\.0\.1:\d+/.test(forward.stdout())), { timeoutMs: MINUTE, intervalMs: 100 });
    const port = /Forwarding from 127\.0\.0\.1:(\d+)/.exec(forward.stdout())?.[1] ?? '';
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.getByLabel('Bearer token').fill(account.token);
    const signingIn = Date.now();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(`Signed in as ${account.user}`).waitFor({ timeout: MINUTE });
    await page.getByRole('heading', { name: 'Hosted clusters' }).waitFor();
    await page.locator('table, .empty').first().waitFor({ timeout: MINUTE });
    const listed = (Date.now() - signingIn) / 1000;
    assert.equal(await page.getByText(/forbidden/).count(), 0, 'a cluster-admin token sees every namespace');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    return `installed console: rolled out, reached through kubectl port-forward, ${account.user} signed in and had the list in ${listed.toFixed(1)}s, then signed out`;
  } finally {
    await browser.close();
    await forward.stop();
    await account.remove();
  }
}

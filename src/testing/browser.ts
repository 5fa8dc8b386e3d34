/**
 * The browser of the browser tier: headless Chromium from Debian's package (chromium-headless-shell, or chromium),
 * driven by Playwright. Where no Chromium can be found the tier skips with a message that says how to install it,
 * except in CI, where a missing browser fails the tier instead of passing it silently.
 */
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];

/** The Chromium to drive: $HCP_CHROMIUM, else Debian's. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const given = env['HCP_CHROMIUM'];
  if (given !== undefined && given !== '') return given;
  return CANDIDATES.find((p) => existsSync(p));
}

/**
 * Why the browser tests cannot run here (a message for `it(..., { skip })`), or undefined when they can. In CI a
 * missing browser throws: ./dev setup installs it there.
 */
export function browserSkipReason(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (chromiumPath(env) !== undefined) return undefined;
  const why = `no Chromium at ${CANDIDATES.join(' or ')} (set HCP_CHROMIUM, or install Debian's chromium-headless-shell: ./dev setup does as root)`;
  if (env['CI'] === 'true') throw new Error(`the browser tier cannot run: ${why}`);
  return why;
}

/** Starts headless Chromium (as root it needs --no-sandbox: Chromium's sandbox refuses to run as root). */
export async function launchBrowser(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const executablePath = chromiumPath();
  if (executablePath === undefined) throw new Error('no Chromium: see browserSkipReason');
  return chromium.launch({ executablePath, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
}

// Launching Debian's Chromium for browser tests: playwright-core drives /usr/bin/chromium (no
// browser download), headless, with a fresh profile and every background network feature off,
// so any request the page makes is the page's own.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: install it with \`apt-get install -y chromium\` (.ci/run does) or set CHROMIUM_PATH`);
  const profile = mkdtempSync(join(tmpdir(), 'treebench-chromium-'));
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1200, height: 900 },
  });
}

/** A page and what it did from its first navigation on: console errors, requests, dialogs. */
export interface WatchedPage {
  page: Page;
  errors: string[];
  requests: string[];
  dialogs: string[];
}

/** Opens `url` in a new page that records console errors, page errors, requests and dialogs (dismissed). */
export async function openWatched(context: BrowserContext, url: string): Promise<WatchedPage> {
  const page = await context.newPage();
  const out: WatchedPage = { page, errors: [], requests: [], dialogs: [] };
  page.on('console', (m) => m.type() === 'error' && out.errors.push(m.text()));
  page.on('pageerror', (e) => out.errors.push(String(e)));
  page.on('request', (r) => out.requests.push(r.url()));
  page.on('dialog', (d) => (out.dialogs.push(d.message()), void d.dismiss()));
  await page.goto(url, { waitUntil: 'load' });
  return out;
}

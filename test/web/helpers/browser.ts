// Headless Debian Chromium through playwright-core, and screenshots saved as test artifacts.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { PROJECT_ROOT } from '../../../src/adapters/project-root.ts';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const ARTIFACTS_DIR = join(PROJECT_ROOT, 'artifacts', 'web');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** Saves a screenshot: the whole page, or (`view`) what the player sees in the window right now. */
export async function screenshot(page: Page, name: string, what: 'page' | 'view' = 'page'): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  // An artifact, not an assertion: a whole long page on a busy machine may take longer than an action.
  await page.screenshot({ path, fullPage: what === 'page', timeout: 30_000 });
  return path;
}

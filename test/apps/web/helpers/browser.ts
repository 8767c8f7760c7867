// Headless Debian Chromium through playwright-core, and screenshots saved as test artifacts.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { PROJECT_ROOT } from '../../../../src/adapters/project-root.ts';

/** Debian's Chromium; MNESOS_TEST_CHROMIUM points elsewhere (a missing path: as a machine without it). */
export const CHROMIUM_PATH = process.env.MNESOS_TEST_CHROMIUM || '/usr/bin/chromium';
export const ARTIFACTS_DIR = join(PROJECT_ROOT, 'artifacts', 'web');

/**
 * Whether a suite that needs Chromium can run. Prints one line naming what is skipped when it cannot;
 * throws under CI=true, so the file fails instead of skipping (as test/helpers/shared.ts does).
 */
export function chromiumAvailable(what: string): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI === 'true')
    throw new Error(`${what}: ${CHROMIUM_PATH} is missing, and CI=true requires it`);
  console.log(`skipped: ${what} — no Chromium at ${CHROMIUM_PATH}`);
  return false;
}

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

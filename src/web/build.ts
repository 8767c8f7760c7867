// Builds the web client with Vite into dist/web (or another folder), and tells whether a build is stale.
// `tsx src/web/build.ts --if-needed` is what `npm start` runs before serving. dist/ is git-ignored and
// outside the lint and type-check globs, so a built bundle never trips them.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WEB_ROOT = fileURLToPath(new URL('.', import.meta.url));
export const WEB_DIST = join(WEB_ROOT, '..', '..', 'dist', 'web');
const CONFIG_FILE = join(WEB_ROOT, 'vite.config.ts');

/** Newest modification time of the client's sources (its own files and the shared code it imports). */
function newestSource(): number {
  const folders = [WEB_ROOT, join(WEB_ROOT, '..', 'ledger')];
  let newest = 0;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (/\.(tsx?|css|html)$/.test(entry.name)) {
        newest = Math.max(newest, statSync(path).mtimeMs);
      }
    }
  };
  for (const folder of folders) if (existsSync(folder)) walk(folder);
  return newest;
}

/** True when `outDir` has no build, or one older than the sources. */
export function webClientStale(outDir = WEB_DIST): boolean {
  const index = join(outDir, 'index.html');
  if (!existsSync(index)) return true;
  return statSync(index).mtimeMs < newestSource();
}

/** Builds the client into `outDir` and returns it. */
export async function buildWebClient(outDir = WEB_DIST): Promise<string> {
  const { build } = await import('vite');
  await build({ configFile: CONFIG_FILE, build: { outDir, emptyOutDir: true } });
  return outDir;
}

const invokedDirectly = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (invokedDirectly) {
  const ifNeeded = process.argv.includes('--if-needed');
  if (ifNeeded && !webClientStale()) {
    process.stdout.write(`web client is up to date (${relative(process.cwd(), WEB_DIST) || WEB_DIST})\n`);
  } else {
    await buildWebClient();
    process.stdout.write(`web client built into ${relative(process.cwd(), WEB_DIST) || WEB_DIST}\n`);
  }
}

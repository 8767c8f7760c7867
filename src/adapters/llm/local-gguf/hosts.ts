// The model hosts of this server process (host.ts): one per model file and settings, shared by every role
// and every session that uses it, at most MAX_LOADED_MODELS of them (loading another retires the least
// recently used once its calls are done). A file refused for what it is (its header, its chat template,
// a load llama.cpp refuses) is remembered by its identity on disk, so it is never loaded, and its
// template never rendered, again: the next call fails at once with the same error. A changed file (new
// size, time or inode) is tried afresh.

import { stat } from 'node:fs/promises';
import { ModelError } from '../errors.ts';
import { type HostOptions, type LoadKey, ModelHost } from './host.ts';
import { MAX_LOADED_MODELS } from './options.ts';

/** Refused files remembered (the least recently refused forgotten first). */
export const MAX_REFUSED_FILES = 64;

/** A host being started or running; the object is its identity in the map (a later start is another). */
interface Entry {
  host: Promise<ModelHost>;
}

const hosts = new Map<string, Entry>();
/** Every host process alive, those being retired included (a shutdown kills them all). */
const live = new Set<ModelHost>();
const refused = new Map<string, ModelError>();

function keyOf(key: LoadKey): string {
  return JSON.stringify([key.entry, key.file, key.threads, key.contextSize ?? null, key.memoryMb]);
}

async function identityOf(file: string): Promise<string> {
  try {
    const found = await stat(file);
    return JSON.stringify([file, found.size, found.mtimeMs, found.ino]);
  } catch (error) {
    throw new ModelError('config', `${file}: cannot be read: ${(error as Error).message}`, { cause: error });
  }
}

function remember(identity: string, error: ModelError): void {
  refused.delete(identity);
  refused.set(identity, error);
  while (refused.size > MAX_REFUSED_FILES) {
    const oldest = refused.keys().next();
    if (oldest.done) break;
    refused.delete(oldest.value);
  }
}

/** Starts a host unless the file is known to be refused; a dead host leaves the map (and may refuse its file). */
function start(id: string, options: HostOptions): Entry {
  const entry: Entry = { host: Promise.resolve(undefined as never) };
  const forget = () => {
    if (hosts.get(id) === entry) hosts.delete(id);
  };
  entry.host = (async () => {
    const identity = await identityOf(options.key.file);
    const known = refused.get(identity);
    if (known !== undefined) throw known;
    const host = new ModelHost(options);
    live.add(host);
    host.onDeath((death) => {
      live.delete(host);
      if (death.refuseFile) remember(identity, death.error);
      forget();
    });
    return host;
  })();
  entry.host.catch(forget);
  return entry;
}

function evictBeyondLimit(): void {
  while (hosts.size > MAX_LOADED_MODELS) {
    const [oldestId, oldest] = hosts.entries().next().value as [string, Entry];
    hosts.delete(oldestId);
    void oldest.host.then(
      (host) => host.retire(),
      () => undefined,
    );
  }
}

/** The host of a file and settings, started on first use; resolves once its model is loaded. */
export async function readyHost(options: HostOptions): Promise<ModelHost> {
  const id = keyOf(options.key);
  const entry = hosts.get(id) ?? start(id, options);
  // Most recently used last.
  hosts.delete(id);
  hosts.set(id, entry);
  evictBeyondLimit();
  const host = await entry.host;
  await host.ready();
  return host;
}

/** Files with a host now (loading or loaded), for tests of the bound. */
export function modelHostCount(): number {
  return hosts.size;
}

/** Milliseconds closeModelHosts waits for the killed processes to be gone. */
export const CLOSE_HOSTS_WAIT_MS = 2_000;

/** Kills every host (the server is stopping): calls waiting on them fail at once; resolves once they are gone. */
export async function closeModelHosts(): Promise<void> {
  const starting = [...hosts.values()];
  hosts.clear();
  // A host still being started (its file looked at) is killed as soon as it exists.
  await Promise.all(starting.map((entry) => entry.host.catch(() => undefined)));
  const all = [...live];
  for (const host of all) host.kill(new ModelError('aborted', 'the server is stopping'));
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLOSE_HOSTS_WAIT_MS);
  });
  await Promise.race([Promise.all(all.map((host) => host.exited())), waited]);
  clearTimeout(timer);
}

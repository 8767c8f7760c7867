// The model list a chat front end shows: the caller's cartridges by name, then their sessions, most
// recently played first, each named so a person can tell them apart (cartridge · title · last played) and
// ending with `session:<id>`, which is what is read back. SillyTavern sorts the list by id, so a session's
// id starts with its cartridge's name: its sessions come right after the cartridge.

import type { Session } from '../../../adapters/store/index.ts';
import type { AppDeps } from '../deps.ts';

export const SESSION_MODEL = 'session:';
/** Characters of a session title shown in its model id. */
export const MAX_TITLE_IN_MODEL_CHARS = 60;

const SESSION_AT_END = /(?:^|\s)session:([A-Za-z0-9_-]{1,100})$/;

/** The session a model id names (`session:<id>`, alone or at the end of a listed id), or undefined. */
export function sessionIdOf(model: string): string | undefined {
  return SESSION_AT_END.exec(model.trim())?.[1];
}

function minute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `Lanternmere · Chat (Lanternmere) · last played 2026-12-01 19:40 UTC · session:<id>` */
export function sessionModelId(session: Session, cartridgeName: string | undefined): string {
  const raw = (session.title ?? '').replace(/\s+/g, ' ').trim();
  const title =
    raw.length > MAX_TITLE_IN_MODEL_CHARS ? `${raw.slice(0, MAX_TITLE_IN_MODEL_CHARS - 1)}…` : raw;
  const parts = [cartridgeName ?? 'unknown cartridge', title, `last played ${minute(session.updatedAt)}`];
  return `${parts.filter((p) => p !== '').join(' · ')} · ${SESSION_MODEL}${session.id}`;
}

/** The model list: the caller's cartridges by name, then their sessions, most recently played first. */
export async function modelList(deps: Pick<AppDeps, 'store' | 'library'>, principalId: string, max: number) {
  const cartridges = await deps.store.listOwnedCartridges(principalId);
  const sessions = (await deps.store.listSessions(principalId)).sort((a, b) => b.updatedAt - a.updatedAt);
  // Versions are immutable: their names come from the library's memory, not from a read of each row.
  const names = new Map<string, string | undefined>();
  for (const s of sessions.slice(0, max)) {
    if (!names.has(s.cartridgeVersionId))
      names.set(s.cartridgeVersionId, (await deps.library.version(s.cartridgeVersionId))?.name);
  }
  const data = [
    ...cartridges.map((cart) => ({
      id: cart.name,
      object: 'model',
      created: Math.floor(cart.latest.createdAt / 1000),
      owned_by: cart.owner === 'operator' ? 'mnesos' : principalId,
    })),
    ...sessions.map((s) => ({
      id: sessionModelId(s, names.get(s.cartridgeVersionId)),
      object: 'model',
      created: Math.floor(s.createdAt / 1000),
      owned_by: principalId,
      ...(s.title ? { name: s.title } : {}),
    })),
  ].slice(0, max);
  return { object: 'list' as const, data };
}

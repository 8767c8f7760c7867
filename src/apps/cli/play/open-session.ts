// Which session `play` continues: `--session NAME` resumes the local player's session of that name (or id)
// and creates it when there is none; without it every `play` starts a new game. A new session pins the
// cartridge folder's current files in the store, so a resumed game always plays the version it began with.

import { type CartridgeLibrary, SessionError, type SessionService } from '../../../engine/session/index.ts';
import type { Session, SessionCursor, Store } from '../../../adapters/store/index.ts';
import { loadCartridgeArg, resolveCartridgePath } from '../cartridge-arg.ts';
import { UserError } from '../user-error.ts';
import { MAX_PLAY_NAME_CHARS } from './limits.ts';

export interface OpenedSession {
  readonly session: Session;
  readonly resumed: boolean;
  /** Something the player should know (the cartridge changed since the session began). */
  readonly note?: string;
}

export interface OpenSessionOptions {
  readonly store: Store;
  readonly library: CartridgeLibrary;
  readonly service: SessionService;
  readonly principalId: string;
  /** The cartridge argument as typed (undefined: the demo cartridge). */
  readonly cartridgeArg: string | undefined;
  readonly sessionName: string | undefined;
  /** For a new session: its opening message (0 = first-message.md, n = alternate greeting n). */
  readonly greeting?: number;
}

export function checkSessionName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new UserError('--session: the session name is empty.', 2);
  if (trimmed.length > MAX_PLAY_NAME_CHARS) {
    throw new UserError(
      `--session: the name is ${trimmed.length} characters, over the limit of ${MAX_PLAY_NAME_CHARS} (MAX_PLAY_NAME_CHARS).`,
      2,
    );
  }
  return trimmed;
}

/** Sessions read per page while looking for a title. */
const TITLE_SEARCH_PAGE = 200;

/** The player's most recently played session with this title, read a page at a time. */
async function sessionTitled(store: Store, principalId: string, title: string): Promise<Session | undefined> {
  let after: SessionCursor | undefined;
  for (;;) {
    const page = await store.listSessions(principalId, {
      limit: TITLE_SEARCH_PAGE,
      ...(after === undefined ? {} : { after }),
    });
    const found = page.find((s) => s.title === title);
    if (found !== undefined) return found;
    const last = page.at(-1);
    // Each page starts after the last one's last session; the session cap bounds the pages.
    if (last === undefined || page.length < TITLE_SEARCH_PAGE) return undefined;
    after = { updatedAt: last.updatedAt, id: last.id };
  }
}

export async function openPlaySession(options: OpenSessionOptions): Promise<OpenedSession> {
  const { store, library, service, principalId } = options;
  const name = options.sessionName === undefined ? undefined : checkSessionName(options.sessionName);
  if (name !== undefined) {
    const found =
      (await sessionTitled(store, principalId, name)) ?? (await store.getSession(name, principalId));
    if (found !== undefined) {
      if (options.cartridgeArg === undefined) return { session: found, resumed: true };
      const given = await loadCartridgeArg(options.cartridgeArg);
      const { version } = await service.cartridgeOf(found);
      if (given.contentHash === version.contentHash) return { session: found, resumed: true };
      return {
        session: found,
        resumed: true,
        note: `Session '${name}' keeps playing the cartridge version it began with ('${version.name}'); the files of '${options.cartridgeArg}' differ from it. Start another session to play them.`,
      };
    }
  }
  // Loaded first for its diagnostics (file:line:col, exit 1), then stored as a version the session pins.
  await loadCartridgeArg(options.cartridgeArg);
  const registered = await library.registerFolder(resolveCartridgePath(options.cartridgeArg));
  if (!registered.ok) throw new UserError(registered.errors.map((e) => e.message).join('\n'));
  try {
    const { session } = await service.createSession(principalId, {
      cartridgeVersion: registered.version.id,
      ...(name === undefined ? {} : { title: name }),
      ...(options.greeting === undefined ? {} : { greeting: options.greeting }),
    });
    return { session, resumed: false };
  } catch (error) {
    // A greeting the cartridge does not have is the player's mistake (exit 1), not a crash.
    if (error instanceof SessionError && error.code === 'invalid')
      throw new UserError(`--greeting: ${error.message}`);
    throw error;
  }
}

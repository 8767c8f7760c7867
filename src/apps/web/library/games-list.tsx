// The player's games: each with its title, its cartridge, its turns and when it was last played; resume
// or delete (after confirming); more, a page at a time.
import { formatWhen, isoWhen } from '../lib/when.ts';
import type { LibraryApi } from './library-api.ts';
import type { LibraryLists } from './use-library-lists.ts';

export function GamesList({ api, lists }: { api: LibraryApi; lists: LibraryLists }) {
  const { sessions, versionNames } = lists;
  return (
    <section class="card" aria-labelledby="games-h">
      <h2 id="games-h">Your games</h2>
      <ul class="list-plain games" data-testid="session-list">
        {sessions.map((s) => (
          <li key={s.id} data-testid="session-item">
            <span class="game-title">
              <strong>{s.title ?? versionNames.get(s.cartridgeVersionId) ?? 'Untitled game'}</strong>
              <span class="muted" data-testid="session-cartridge">
                {versionNames.get(s.cartridgeVersionId) ?? 'cartridge no longer in the library'}
              </span>
            </span>
            <span class="muted" data-testid="session-turns">
              {Math.max(0, s.turnCount - 1)} turn{s.turnCount - 1 === 1 ? '' : 's'}
            </span>
            <span class="muted">
              last played <time dateTime={isoWhen(s.updatedAt)}>{formatWhen(s.updatedAt)}</time>
            </span>
            <a href={`#/play/${encodeURIComponent(s.id)}`}>Resume</a>
            <button
              type="button"
              onClick={async () => {
                if (!confirm('Delete this game, its turns and saves?')) return;
                await api.deleteSession(s.id).catch(lists.setError);
                await lists.refresh();
              }}
            >
              Delete
            </button>
          </li>
        ))}
        {sessions.length === 0 ? <li class="muted">No games yet.</li> : null}
      </ul>
      {lists.moreSessions === null ? null : (
        <button type="button" data-testid="more-sessions" onClick={() => void lists.showMoreSessions()}>
          More games
        </button>
      )}
    </section>
  );
}

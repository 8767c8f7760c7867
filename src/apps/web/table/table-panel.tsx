// The table on the play screen: who sits at it and in what role, whose turn is playing now (its prose as it
// streams), who waits in the queue, the round's submitted actions, and what the owner or a game master may
// change (invite with a link and a code, the turn order, closing a round). Each player's own sheet is the
// state panel beside the story: the server shows each member their own character.

import { useEffect, useState } from 'preact/hooks';
import { useClient } from '../app/context.ts';
import './table.css';
import { failureText } from '../lib/errors.ts';
import { type InviteView, TableApi, type TableResponse } from './table-api.ts';
import { type PlayingTurn, useTable } from './use-table.ts';

/** The table as read (use-table.ts), the invite made here, the last action's error, and `makeInvite`. */
function useTablePanel(api: TableApi, sessionId: string, onStory: () => void) {
  const { state, refresh } = useTable(api, sessionId, onStory);
  const [invite, setInvite] = useState<InviteView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const makeInvite = (): void =>
    void (async () => {
      setInvite(await api.invite(sessionId));
      await refresh();
    })().then(
      () => setError(null),
      (e: unknown) => setError(failureText(e)),
    );
  return { state, refresh, invite, error, setError, makeInvite };
}

export function TablePanel({
  sessionId,
  onStory,
  onSteers,
}: {
  sessionId: string;
  onStory: () => void;
  /** Whether this member steers the story (undo, swipe, branch: the owner and game masters), as it changes. */
  onSteers?: (steers: boolean) => void;
}) {
  const api = useClient(TableApi);
  const { state, refresh, invite, error, setError, makeInvite } = useTablePanel(api, sessionId, onStory);
  const snapshot = state.snapshot;
  const steers = snapshot?.you.steers;
  useEffect(() => {
    if (steers !== undefined) onSteers?.(steers);
  }, [steers, onSteers]);
  if (snapshot === null) return null;
  return (
    <section class="table-panel" aria-label="Table" data-testid="table-panel">
      {snapshot.table === null ? (
        steers ? (
          <button type="button" data-testid="table-invite" onClick={makeInvite}>
            Invite players to this game
          </button>
        ) : null
      ) : (
        <TableBody
          api={api}
          sessionId={sessionId}
          snapshot={snapshot}
          playing={state.playing}
          steers={steers === true}
          onInvite={makeInvite}
          onError={setError}
          onChanged={refresh}
        />
      )}
      {invite?.code !== undefined ? <InviteShown invite={invite} /> : null}
      {(error ?? state.error) ? (
        <p class="error" role="alert" data-testid="table-error">
          {error ?? state.error}
        </p>
      ) : null}
    </section>
  );
}

/** A table that exists: its members, the turn playing now, the controls (for those who steer) and actions. */
function TableBody(props: {
  api: TableApi;
  sessionId: string;
  snapshot: TableResponse;
  playing: PlayingTurn | null;
  steers: boolean;
  onInvite: () => void;
  onError: (error: string | null) => void;
  onChanged: () => Promise<void>;
}) {
  const { api, sessionId, snapshot } = props;
  return (
    <>
      <h2>Table</h2>
      <Members snapshot={snapshot} />
      <NowPlaying snapshot={snapshot} playing={props.playing} />
      {props.steers ? (
        <TableControls
          api={api}
          sessionId={sessionId}
          snapshot={snapshot}
          onInvite={props.onInvite}
          onError={props.onError}
          onChanged={props.onChanged}
        />
      ) : null}
      <ActionBox
        api={api}
        sessionId={sessionId}
        snapshot={snapshot}
        onError={props.onError}
        onDone={props.onChanged}
      />
    </>
  );
}

function nameOf(snapshot: TableResponse, character: string | null): string {
  if (character === null) return 'Everyone';
  return snapshot.members.find((m) => m.character === character)?.name ?? character;
}

function Members({ snapshot }: { snapshot: TableResponse }) {
  return (
    <ul class="table-members" data-testid="table-members">
      {snapshot.members.map((m) => (
        <li key={m.character} data-character={m.character}>
          {m.name}
          {m.role === 'player' ? '' : ` (${m.role === 'owner' ? 'owner' : 'game master'})`}
          {m.you ? ' — you' : ''}
        </li>
      ))}
    </ul>
  );
}

function NowPlaying({ snapshot, playing }: { snapshot: TableResponse; playing: PlayingTurn | null }) {
  const waiting = snapshot.queue.slice(1).map((q) => nameOf(snapshot, q.character));
  return (
    <div class="table-now">
      <p role="status" data-testid="table-playing">
        {playing !== null ? `${nameOf(snapshot, playing.by)} is playing…` : 'Nobody is playing right now.'}
      </p>
      {playing !== null && playing.text !== '' ? (
        <blockquote class="table-live" data-testid="table-live-narration">
          {playing.text}
        </blockquote>
      ) : null}
      {waiting.length > 0 ? <p data-testid="table-queue">Waiting: {waiting.join(', ')}</p> : null}
      {snapshot.table?.turnOrder === 'rounds' ? (
        <p data-testid="table-round">
          Round {snapshot.table.round}:{' '}
          {snapshot.roundActions.length === 0
            ? 'nobody has acted yet.'
            : `${snapshot.roundActions.map((a) => nameOf(snapshot, a.character)).join(', ')} acted.`}
        </p>
      ) : null}
    </div>
  );
}

function TableControls(props: {
  api: TableApi;
  sessionId: string;
  snapshot: TableResponse;
  onInvite: () => void;
  onError: (text: string | null) => void;
  onChanged: () => Promise<void>;
}) {
  const { api, sessionId, snapshot } = props;
  const order = snapshot.table?.turnOrder ?? 'free';
  const run = (work: () => Promise<void>) =>
    void work()
      .then(props.onChanged)
      .then(
        () => props.onError(null),
        (e: unknown) => props.onError(failureText(e)),
      );
  return (
    <div class="table-controls">
      <button type="button" data-testid="table-invite" onClick={props.onInvite}>
        Invite
      </button>
      <label>
        Turn order{' '}
        <select
          data-testid="table-order"
          value={order}
          onChange={(e) =>
            run(() =>
              api.setTurnOrder(sessionId, (e.currentTarget as HTMLSelectElement).value as 'free' | 'rounds'),
            )
          }
        >
          <option value="free">Free: first come, first played</option>
          <option value="rounds">Rounds: everyone acts, then the round plays</option>
        </select>
      </label>
      {order === 'rounds' && snapshot.roundActions.length > 0 ? (
        <button
          type="button"
          data-testid="table-close-round"
          onClick={() => run(() => api.closeRound(sessionId))}
        >
          Play the round now
        </button>
      ) : null}
    </div>
  );
}

/** A round's action, or (free order) a whisper to the game master: sent without a stream. */
function ActionBox(props: {
  api: TableApi;
  sessionId: string;
  snapshot: TableResponse;
  onError: (text: string | null) => void;
  onDone: () => Promise<void>;
}) {
  const [text, setText] = useState('');
  const rounds = props.snapshot.table?.turnOrder === 'rounds';
  const send = () =>
    void props.api
      .act(props.sessionId, text, !rounds)
      .then(() => setText(''))
      .then(props.onDone)
      .then(
        () => props.onError(null),
        (e: unknown) => props.onError(failureText(e)),
      );
  return (
    <div class="table-action">
      <label>
        {rounds ? 'Your action this round' : 'Whisper to the game master'}
        <textarea
          data-testid="table-action-input"
          value={text}
          onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)}
        />
      </label>
      <button type="button" data-testid="table-action-send" disabled={text.trim() === ''} onClick={send}>
        {rounds ? 'Submit action' : 'Whisper'}
      </button>
    </div>
  );
}

function InviteShown({ invite }: { invite: InviteView }) {
  const link = `${location.origin}${invite.link ?? ''}`;
  return (
    <p class="table-invite-shown" data-testid="table-invite-shown">
      Send this link to your friends:{' '}
      <input readOnly value={link} data-testid="table-invite-link" size={40} /> or the code{' '}
      <code data-testid="table-invite-code">{invite.code}</code>.
    </p>
  );
}

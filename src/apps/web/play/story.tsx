// The story of the play screen: every turn of the branch (the player's words, editable; the narration with
// its swipes and, when shown, the rules' outcome) and the turn being played, streamed.
import { useState } from 'preact/hooks';
import { describeOutcome, MAX_INPUT_CHARS, type PublicOutcome } from '../../../engine/turn/browser.ts';
import type { TurnView } from '../../contract/index.ts';
import { type Swipes, swipesOf, type Tree } from './tree.ts';
import { DiceIcon } from '../ui/icons.tsx';
import { Markdown } from '../ui/markdown-view.tsx';
import { gameEventText } from './story-events.ts';
import type { LiveTurn } from './play-state.ts';
import { TurnMedia } from './turn-media.tsx';

export function StoryLog(props: {
  story: readonly TurnView[];
  tree: Tree;
  /** The session head: the last turn shows the head's swipes. */
  head: TurnView | null;
  live: LiveTurn | null;
  disabled: boolean;
  showRules: boolean;
  /** The turn read aloud as soon as it is shown (a new turn, with auto-read on), if any. */
  autoReadTurnId?: string | null;
  onSwipe: (id: string) => void;
  onEdit: (turnId: string, text: string) => void;
}) {
  const { story, tree, head } = props;
  const headSwipes = head ? swipesOf(tree, head.id) : undefined;
  return (
    <div role="log" aria-label="Story" aria-live="polite" aria-relevant="additions text">
      <ol class="story" data-testid="story">
        {story.map((turn, i) => (
          <StoryTurn
            key={turn.id}
            turn={turn}
            swipes={i === story.length - 1 ? headSwipes : swipesOf(tree, turn.id)}
            onSwipe={props.onSwipe}
            onEdit={(text) => props.onEdit(turn.id, text)}
            disabled={props.disabled}
            showRules={props.showRules}
            autoRead={turn.id === props.autoReadTurnId}
          />
        ))}
        {props.live ? <LiveView live={props.live} /> : null}
      </ol>
    </div>
  );
}

function StoryTurn(props: {
  turn: TurnView;
  swipes: Swipes | undefined;
  onSwipe: (id: string) => void;
  onEdit: (text: string) => void;
  disabled: boolean;
  showRules: boolean;
  autoRead: boolean;
}) {
  const { turn } = props;
  return (
    <>
      {turn.input !== null && turn.input !== '' ? (
        <PlayerMessage
          input={turn.input}
          by={playedBy(turn)}
          disabled={props.disabled}
          onEdit={props.onEdit}
        />
      ) : null}
      {turn.narration !== '' || turn.parentId === null ? (
        <NarratorMessage
          turn={turn}
          swipes={props.swipes}
          disabled={props.disabled}
          showRules={props.showRules}
          autoRead={props.autoRead}
          onSwipe={props.onSwipe}
        />
      ) : null}
    </>
  );
}

/** What the player sent; free text can be edited and played again (a new branch from the same parent). */
/**
 * At a shared table, the name of the character who played a turn, or "Round" for a round (its input names
 * each character, docs/multiplayer.md); else undefined.
 */
function playedBy(turn: object): string | undefined {
  const { by, round } = turn as { by?: { name?: unknown } | null; round?: unknown };
  if (round === true) return 'Round';
  return typeof by?.name === 'string' ? by.name : undefined;
}

/** The player's words as they typed them: each line its own (Markdown would join single newlines). */
const keepLines = (text: string) => text.replace(/(?<=[^\n])\n(?=[^\n])/g, '  \n');

function PlayerMessage(props: {
  input: string;
  /** Who played it at a shared table (their name stands where "You" would). */
  by?: string | undefined;
  disabled: boolean;
  onEdit: (text: string) => void;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const event = gameEventText(props.input);
  if (event !== undefined)
    return (
      <li class="msg event" data-testid="game-event">
        <div class="who">Game</div>
        <p>{event}</p>
      </li>
    );
  // Mini-game results and author events are recorded as text too, but replaying them as free text would
  // not mean the same thing.
  const editable = !/^\[(minigame:|author\])/.test(props.input);
  return (
    <li class="msg player" data-testid="player-message">
      <div class="who">
        {props.by ?? 'You'}
        {editable && editing === null ? (
          <button
            type="button"
            class="edit"
            aria-label="Edit this message and play it again"
            data-testid="edit-message"
            disabled={props.disabled}
            onClick={() => setEditing(props.input)}
          >
            Edit
          </button>
        ) : null}
      </div>
      {editing === null ? (
        <Markdown text={keepLines(props.input)} />
      ) : (
        <form
          class="composer"
          style={{ position: 'static' }}
          onSubmit={(e) => {
            e.preventDefault();
            const text = editing.trim();
            if (text === '') return;
            setEditing(null);
            props.onEdit(text);
          }}
        >
          <textarea
            aria-label="Edited message"
            data-testid="edit-input"
            maxLength={MAX_INPUT_CHARS}
            value={editing}
            onInput={(e) => setEditing((e.currentTarget as HTMLTextAreaElement).value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setEditing(null);
              // Enter plays the edited line, as in the main box; Shift+Enter is a new line.
              if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
                e.preventDefault();
                e.currentTarget.form?.requestSubmit();
              }
            }}
          />
          <button type="submit" class="primary" data-testid="edit-submit" disabled={editing.trim() === ''}>
            Play
          </button>
          <button type="button" onClick={() => setEditing(null)}>
            Cancel
          </button>
        </form>
      )}
    </li>
  );
}

/** The narration, with its swipes (other versions of the same turn) and, when shown, the rules' outcome. */
function NarratorMessage(props: {
  turn: TurnView;
  swipes: Swipes | undefined;
  disabled: boolean;
  showRules: boolean;
  autoRead: boolean;
  onSwipe: (id: string) => void;
}) {
  const { turn, swipes } = props;
  return (
    <li class="msg narrator" data-testid="narration" data-turn-id={turn.id}>
      <div class="who">
        Narrator
        {swipes && swipes.count > 1 ? (
          <span class="swipes" data-testid="swipes">
            <button
              type="button"
              aria-label="Previous version"
              disabled={props.disabled || !swipes.previous}
              data-testid="swipe-prev"
              onClick={() => swipes.previous && props.onSwipe(swipes.previous)}
            >
              ‹
            </button>
            <span data-testid="swipe-position">
              {swipes.index + 1}/{swipes.count}
            </span>
            <button
              type="button"
              aria-label="Next version"
              disabled={props.disabled || !swipes.next}
              data-testid="swipe-next"
              onClick={() => swipes.next && props.onSwipe(swipes.next)}
            >
              ›
            </button>
          </span>
        ) : null}
      </div>
      <Markdown text={turn.narration} />
      {props.showRules ? <OutcomeView outcome={turn.outcome} /> : null}
      <TurnMedia key={turn.id} sessionId={turn.sessionId} turnId={turn.id} autoRead={props.autoRead} />
    </li>
  );
}

/** The dice and what changed, under a turn's prose (public fields only; collapsible). */
function OutcomeView({ outcome }: { outcome: PublicOutcome | null | undefined }) {
  if (!outcome) return null;
  const lines = describeOutcome(outcome);
  if (lines.length === 0) return null;
  return (
    <details class="outcome" open data-testid="outcome">
      <summary>
        <DiceIcon /> Rules
      </summary>
      <ul>
        {lines.map((line, i) => (
          <li key={i} data-testid="outcome-line">
            {line}
          </li>
        ))}
      </ul>
    </details>
  );
}

function LiveView({ live }: { live: LiveTurn }) {
  const event = live.input ? gameEventText(live.input) : undefined;
  return (
    <>
      {event !== undefined ? (
        <li class="msg event" data-testid="game-event">
          <div class="who">Game</div>
          <p>{event}</p>
        </li>
      ) : live.input ? (
        <li class="msg player" data-testid="player-message">
          <div class="who">You</div>
          <Markdown text={live.input} />
        </li>
      ) : null}
      <li class="msg narrator streaming" data-testid="live-narration" aria-busy="false">
        <div class="who">Narrator</div>
        {live.narration === '' ? <p class="muted">…</p> : <Markdown text={live.narration} />}
      </li>
    </>
  );
}

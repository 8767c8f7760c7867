// The story of the play screen: the turns of the branch (the player's words, editable; the narration with
// its swipes and, when shown, the rules' outcome) and the turn being played, streamed. Only the newest
// turns are drawn (a window that grows as the player scrolls up, reading older pages when needed), and a
// turn is drawn again only when something it shows changed, so the story costs the same at any length.
import { memo } from 'preact/compat';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { describeOutcome, MAX_INPUT_CHARS, type PublicOutcome } from '../../../engine/turn/browser.ts';
import type { TurnView } from '../../contract/index.ts';
import { type Swipes, swipesOf, type Tree } from './tree.ts';
import { DiceIcon } from '../ui/icons.tsx';
import { Markdown } from '../ui/markdown-view.tsx';
import { gameEventText } from './story-events.ts';
import type { LiveTurn } from './play-state.ts';
import { OLDER_PAGE_TURNS, OPEN_TURNS } from './turn-cache.ts';
import { TurnMedia } from './turn-media.tsx';

/**
 * The turns drawn: how many of the newest grows as the player scrolls up (`earlier`, reading an older page
 * when the story holds too few), and starts again from the newest when the head moves (a turn played,
 * undone, swiped or jumped to), so the page stays small.
 */
function useStoryWindow(story: readonly TurnView[], headId: string | undefined, onOlder: () => void) {
  const [span, setSpan] = useState({ headId, drawn: OPEN_TURNS });
  const drawn = span.headId === headId ? span.drawn : OPEN_TURNS;
  const start = Math.max(0, story.length - drawn);
  const shown = story.slice(start);
  // Older turns exist when the oldest shown is not the first message (read or not yet).
  const hasEarlier = start > 0 || (story[0] !== undefined && story[0].parentId !== null);
  const earlier = useCallback(() => {
    setSpan({ headId, drawn: drawn + OLDER_PAGE_TURNS });
    if (story.length < drawn + OLDER_PAGE_TURNS) onOlder();
  }, [story.length, drawn, headId, onOlder]);
  return { shown, hasEarlier, earlier };
}

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
  /** Stable callbacks (the turns are memoised on them). */
  onSwipe: (id: string) => void;
  onEdit: (turnId: string, text: string) => void;
  /** Reads the next older page of the branch (the story holds only its newest turns read so far). */
  onOlder: () => void;
}) {
  const { tree, head } = props;
  const headSwipes = head ? swipesOf(tree, head.id) : undefined;
  const { shown, hasEarlier, earlier } = useStoryWindow(props.story, head?.id, props.onOlder);
  const list = useRef<HTMLOListElement>(null);
  useKeepPlace(list, shown[0]?.id);

  return (
    <div role="log" aria-label="Story" aria-live="polite" aria-relevant="additions text">
      <ol class="story" data-testid="story" ref={list}>
        {hasEarlier ? <EarlierTurns onShow={earlier} /> : null}
        {shown.map((turn, i) => (
          <StoryTurn
            key={turn.id}
            turn={turn}
            swipes={i === shown.length - 1 ? headSwipes : swipesOf(tree, turn.id)}
            onSwipe={props.onSwipe}
            onEdit={props.onEdit}
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

/**
 * Keeps what the player reads in place when older turns are drawn above it: the turn that was first
 * before the change is moved back to where it was (browsers without scroll anchoring would jump).
 */
function useKeepPlace(list: { readonly current: HTMLOListElement | null }, firstId: string | undefined) {
  const before = useRef<{ id: string; top: number } | null>(null);
  const drawnFirst = useRef<string | undefined>(undefined);
  // Measured during render, before the DOM changes, only when the first turn is about to change.
  if (firstId !== drawnFirst.current && drawnFirst.current !== undefined && list.current) {
    const el = list.current.querySelector(`[data-turn-id="${CSS.escape(drawnFirst.current)}"]`);
    before.current = el ? { id: drawnFirst.current, top: el.getBoundingClientRect().top } : null;
  }
  useLayoutEffect(() => {
    drawnFirst.current = firstId;
    const was = before.current;
    before.current = null;
    if (!was || !list.current) return;
    const el = list.current.querySelector(`[data-turn-id="${CSS.escape(was.id)}"]`);
    if (!el) return;
    const moved = el.getBoundingClientRect().top - was.top;
    if (moved !== 0) window.scrollBy(0, moved);
  }, [firstId]);
}

/** The top of the story while older turns exist: drawn (or read) when it comes near the screen, or pressed. */
function EarlierTurns({ onShow }: { onShow: () => void }) {
  const item = useRef<HTMLLIElement>(null);
  const show = useRef(onShow);
  show.current = onShow;
  useEffect(() => {
    const el = item.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) show.current();
      },
      { rootMargin: '800px 0px 0px 0px' },
    );
    // Watched from the next frame on: the screen scrolls to the story's end first.
    const frame = requestAnimationFrame(() => observer.observe(el));
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
    };
  }, []);
  return (
    <li class="earlier" ref={item}>
      <button type="button" data-testid="story-earlier" onClick={() => show.current()}>
        Earlier turns
      </button>
    </li>
  );
}

interface TurnProps {
  turn: TurnView;
  swipes: Swipes | undefined;
  onSwipe: (id: string) => void;
  onEdit: (turnId: string, text: string) => void;
  disabled: boolean;
  showRules: boolean;
  autoRead: boolean;
}

const sameSwipes = (a: Swipes | undefined, b: Swipes | undefined): boolean =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.index === b.index &&
    a.count === b.count &&
    a.previous === b.previous &&
    a.next === b.next);

/** A turn is drawn again only when what it shows changed (turns are immutable; swipes are compared). */
const StoryTurn = memo(
  function StoryTurn(props: TurnProps) {
    const { turn } = props;
    return (
      <>
        {turn.input !== null && turn.input !== '' ? (
          <PlayerMessage
            turnId={turn.id}
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
  },
  (a, b) =>
    a.turn === b.turn &&
    a.disabled === b.disabled &&
    a.showRules === b.showRules &&
    a.autoRead === b.autoRead &&
    a.onSwipe === b.onSwipe &&
    a.onEdit === b.onEdit &&
    sameSwipes(a.swipes, b.swipes),
);

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

/** What the player sent; free text can be edited and played again (a new branch from the same parent). */
function PlayerMessage(props: {
  turnId: string;
  input: string;
  /** Who played it at a shared table (their name stands where "You" would). */
  by?: string | undefined;
  disabled: boolean;
  onEdit: (turnId: string, text: string) => void;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const event = gameEventText(props.input);
  if (event !== undefined) return <GameEventMessage text={event} />;
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
        <EditForm
          text={editing}
          onText={setEditing}
          onCancel={() => setEditing(null)}
          onPlay={(text) => {
            setEditing(null);
            props.onEdit(props.turnId, text);
          }}
        />
      )}
    </li>
  );
}

/** A recorded mini-game result, said in words where the player's message would be (story-events.ts). */
function GameEventMessage({ text }: { text: string }) {
  return (
    <li class="msg event" data-testid="game-event">
      <div class="who">Game</div>
      <p>{text}</p>
    </li>
  );
}

/** The player's message being edited: Enter plays it (Shift+Enter is a new line), Escape cancels. */
function EditForm(props: {
  text: string;
  onText: (text: string) => void;
  onPlay: (text: string) => void;
  onCancel: () => void;
}) {
  const { text } = props;
  return (
    <form
      class="composer"
      style={{ position: 'static' }}
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim() !== '') props.onPlay(text.trim());
      }}
    >
      <textarea
        aria-label="Edited message"
        data-testid="edit-input"
        maxLength={MAX_INPUT_CHARS}
        value={text}
        onInput={(e) => props.onText((e.currentTarget as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') props.onCancel();
          // Enter plays the edited line, as in the main box; Shift+Enter is a new line.
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            e.currentTarget.form?.requestSubmit();
          }
        }}
      />
      <button type="submit" class="primary" data-testid="edit-submit" disabled={text.trim() === ''}>
        Play
      </button>
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </form>
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

// The play screen: the story (Markdown, streamed), the input, undo / regenerate / swipes, the mini-game
// when one is pending, and side panels (state, world, tree, saves, author).
import type { ComponentType } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { MAX_INPUT_CHARS } from '../../turn/limits.ts';
import type { InteractionBody, PersonaView, SessionView, TurnView } from '../api.ts';
import { describeOutcome, type PublicOutcome } from '../../turn/outcome-text.ts';
import { swipesOf } from '../lib/tree.ts';
import { AuthorPanel } from './author-panel.tsx';
import { storedShowRules, useApp } from './context.ts';
import { AlertIcon, DiceIcon, PersonIcon, RegenerateIcon, RetryIcon, UndoIcon } from './icons.tsx';
import { ArticulationScramble } from './articulation-scramble.tsx';
import { LightsOut } from './lights-out.tsx';
import { ReflexDial } from './reflex-dial.tsx';
import { Markdown } from './markdown-view.tsx';
import { type LiveTurn, type PhaseLabel, type PlayError, usePlay } from './play-state.ts';
import { SavesPanel } from './saves-panel.tsx';
import { StatePanel } from './state-panel.tsx';
import { TreePanel } from './tree-panel.tsx';
import { WorldPanel } from './world-panel.tsx';

const PHASE_TEXT: Record<PhaseLabel, string> = {
  thinking: 'Thinking…',
  rolling: 'Rolling…',
  narrating: 'Narrating…',
  saving: 'Saving…',
};

type Tab = 'state' | 'world' | 'tree' | 'saves' | 'author';
const TABS: readonly { id: Tab; label: string }[] = [
  { id: 'state', label: 'State' },
  { id: 'world', label: 'World' },
  { id: 'tree', label: 'Tree' },
  { id: 'saves', label: 'Saves' },
  { id: 'author', label: 'Author' },
];

interface Pending {
  readonly minigameId: string;
  readonly config: unknown;
}

/** The mini-games this client can play, by id (a Map: the id comes from the cartridge). */
const MINIGAME_VIEWS: ReadonlyMap<
  string,
  ComponentType<{ config: unknown; onResult: (result: InteractionBody) => void }>
> = new Map([
  ['lights_out', LightsOut],
  ['articulation_scramble', ArticulationScramble],
  ['reflex_dial', ReflexDial],
]);

function pendingOf(turn: TurnView | null): Pending | null {
  const p = turn?.pendingInteraction as Record<string, unknown> | null | undefined;
  if (!p || typeof p.minigame_id !== 'string') return null;
  return { minigameId: p.minigame_id, config: p.config };
}

export function Play({ sessionId }: { sessionId: string }) {
  const { api, reportModel } = useApp();
  const play = usePlay(api, sessionId, reportModel);
  const { session, story, head, live, error, busy, tree } = play.state;
  const [text, setText] = useState('');
  const [tab, setTab] = useState<Tab>('state');
  const input = useRef<HTMLTextAreaElement>(null);
  const end = useRef<HTMLDivElement>(null);
  const game = useRef<HTMLDivElement>(null);
  const pending = pendingOf(head);
  const GameView = pending ? MINIGAME_VIEWS.get(pending.minigameId) : undefined;
  const running = live !== null || busy;
  const showRules = useState(storedShowRules)[0];

  // A failed turn gives the player's words back, so nothing typed is lost.
  useEffect(() => {
    if (error?.input) setText((current) => (current === '' ? (error.input ?? '') : current));
  }, [error]);
  // A mini-game opens in view and takes the keyboard, so the player does not have to look for it.
  useEffect(() => {
    if (!pending || running) return;
    const box = game.current;
    box?.scrollIntoView?.({ block: 'center' });
    const first = box?.querySelector<HTMLElement>('[tabindex="0"], button:not([disabled]), input');
    first?.focus();
  }, [pending?.minigameId, running, head?.id]);

  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [story.length, live?.narration.length]);
  useEffect(() => {
    if (!running && !pending) input.current?.focus();
  }, [running, pending]);

  const send = (event?: Event): void => {
    event?.preventDefault();
    const value = text.trim();
    if (value === '' || running || pending) return;
    setText('');
    void play.send({ input: value }, value);
  };

  const headSwipes = head ? swipesOf(tree, head.id) : undefined;

  return (
    <div class="play">
      <div class="story-col">
        <div class="toolbar" role="toolbar" aria-label="Turn controls">
          <h1 class="visually-hidden">{session?.title ?? 'Game'}</h1>
          <button
            type="button"
            onClick={() => void play.undo()}
            disabled={running || !head?.parentId}
            data-testid="undo"
          >
            <UndoIcon /> Undo
          </button>
          <button
            type="button"
            onClick={() => void play.regenerate()}
            disabled={running || !head?.parentId || head.input === null}
            data-testid="regenerate"
          >
            <RegenerateIcon /> Regenerate
          </button>
          {live ? (
            <button type="button" onClick={() => play.stop()} data-testid="stop">
              Stop
            </button>
          ) : null}
          <GameTime state={head?.state} />
          {session ? (
            <PersonaChooser session={session} disabled={running} onChanged={() => void play.reload()} />
          ) : null}
        </div>
        <div role="log" aria-label="Story" aria-live="polite" aria-relevant="additions text">
          <ol class="story" data-testid="story">
            {story.map((turn, i) => (
              <StoryTurn
                key={turn.id}
                turn={turn}
                last={i === story.length - 1}
                swipes={i === story.length - 1 ? headSwipes : swipesOf(tree, turn.id)}
                onSwipe={(id) => void play.swipe(id)}
                onEdit={(text) => void play.edit(turn.id, text)}
                disabled={running || pending !== null}
                showRules={showRules}
              />
            ))}
            {live ? <LiveView live={live} /> : null}
          </ol>
        </div>
        <div ref={end} class="story-end" />
        <p class="phase" role="status" data-testid="phase">
          {live ? `${PHASE_TEXT[live.phase]}${live.tool ? ` (${live.tool})` : ''}` : ''}
        </p>
        <div ref={game} class="minigame-wrap" data-testid="minigame-wrap">
          {pending && !running ? (
            GameView ? (
              <GameView
                config={pending.config}
                onResult={(interaction) => void play.send({ interaction }, null)}
              />
            ) : (
              <div class="notice" role="alert">
                This game needs the mini-game “{pending.minigameId}”, which this client does not have.{' '}
                <button
                  type="button"
                  onClick={() =>
                    void play.send(
                      { interaction: { minigame_id: pending.minigameId, status: 'aborted' } },
                      null,
                    )
                  }
                >
                  Skip it
                </button>
              </div>
            )
          ) : null}
        </div>
        <div class="composer-wrap">
          {error ? (
            <TurnProblem
              error={error}
              running={running}
              onRetry={() => void play.retry()}
              onDismiss={play.dismiss}
            />
          ) : null}
          <form class="composer" onSubmit={send}>
            <label class="visually-hidden" for="player-input">
              What do you do?
            </label>
            <textarea
              id="player-input"
              ref={input}
              data-testid="player-input"
              rows={2}
              maxLength={MAX_INPUT_CHARS}
              placeholder={
                pending
                  ? 'Finish the mini-game first'
                  : 'What do you do? (Enter to send, Shift+Enter for a new line)'
              }
              value={text}
              disabled={running || pending !== null}
              onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) send(e);
              }}
            />
            <button
              type="submit"
              class="primary"
              disabled={running || pending !== null || text.trim() === ''}
              data-testid="send"
            >
              Send
            </button>
          </form>
        </div>
      </div>
      <aside class="side" aria-label="Game panels">
        <div class="tabs" role="tablist" aria-label="Panels">
          {TABS.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              id={`tab-${t.id}`}
              aria-selected={tab === t.id}
              aria-controls={`panel-${t.id}`}
              tabIndex={tab === t.id ? 0 : -1}
              data-testid={`tab-${t.id}`}
              onClick={() => setTab(t.id)}
              onKeyDown={(e) => {
                const i = TABS.findIndex((x) => x.id === tab);
                const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
                if (step === 0) return;
                const next = TABS[(i + step + TABS.length) % TABS.length] as (typeof TABS)[number];
                setTab(next.id);
                document.getElementById(`tab-${next.id}`)?.focus();
              }}
            >
              {t.label}
            </button>
          ))}
        </div>
        <div class="tabpanel" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
          {tab === 'state' ? <StatePanel state={head?.state} fields={play.state.fields} /> : null}
          {tab === 'world' && head ? <WorldPanel sessionId={sessionId} turnId={head.id} /> : null}
          {tab === 'tree' && session ? (
            <TreePanel
              tree={tree}
              headId={session.headTurnId}
              label={(id) => play.turnCached(id)}
              disabled={running}
              onJump={(id) => void play.jump(id)}
            />
          ) : null}
          {tab === 'saves' && head ? (
            <SavesPanel
              sessionId={sessionId}
              headId={head.id}
              disabled={running}
              onLoad={(id) => void play.jump(id)}
            />
          ) : null}
          {tab === 'author' && head ? (
            <AuthorPanel sessionId={sessionId} turnId={head.id} onCommitted={() => void play.reload()} />
          ) : null}
        </div>
      </aside>
    </div>
  );
}

function GameTime({ state }: { state: unknown }) {
  const time = (state as Record<string, unknown> | undefined)?.game_time;
  if (typeof time !== 'string' || time === '') return null;
  const date = new Date(`${time}Z`);
  const shown = Number.isNaN(date.getTime())
    ? time
    : `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')} ${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`;
  return (
    <span class="muted" style={{ marginLeft: 'auto' }} data-testid="game-time">
      Game time: {shown}
    </span>
  );
}

function StoryTurn(props: {
  turn: TurnView;
  last: boolean;
  swipes: ReturnType<typeof swipesOf>;
  onSwipe: (id: string) => void;
  onEdit: (text: string) => void;
  disabled: boolean;
  showRules: boolean;
}) {
  const { turn, swipes } = props;
  const [editing, setEditing] = useState<string | null>(null);
  // Mini-game results and author events are recorded as text too, but replaying them as free text would
  // not mean the same thing.
  const editable = turn.input !== null && !/^\[(minigame:|author\])/.test(turn.input);
  return (
    <>
      {turn.input !== null && turn.input !== '' ? (
        <li class="msg player" data-testid="player-message">
          <div class="who">
            You
            {editable && editing === null ? (
              <button
                type="button"
                class="edit"
                aria-label="Edit this message and play it again"
                data-testid="edit-message"
                disabled={props.disabled}
                onClick={() => setEditing(turn.input ?? '')}
              >
                Edit
              </button>
            ) : null}
          </div>
          {editing === null ? (
            <Markdown text={turn.input} />
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
                }}
              />
              <button
                type="submit"
                class="primary"
                data-testid="edit-submit"
                disabled={editing.trim() === ''}
              >
                Play
              </button>
              <button type="button" onClick={() => setEditing(null)}>
                Cancel
              </button>
            </form>
          )}
        </li>
      ) : null}
      {turn.narration !== '' || turn.parentId === null ? (
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
        </li>
      ) : null}
    </>
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

/** A failed turn, next to the input: what went wrong and a way to send it again. */
function TurnProblem(props: {
  error: PlayError;
  running: boolean;
  onRetry: () => void;
  onDismiss: () => void;
}) {
  const { error } = props;
  if (error.kind === 'reply') {
    // Offline, the rules answered instead of playing (a question, what can be done here): not an error.
    return (
      <div class="notice reply" role="status" data-testid="play-reply">
        <p>{error.message}</p>
        <button type="button" onClick={props.onDismiss}>
          OK
        </button>
      </div>
    );
  }
  return (
    <div class="problem" role="alert" data-testid="play-error">
      <AlertIcon />
      <p>
        {error.message}
        {error.kind === 'model' ? ' Nothing was saved; your words are back in the box.' : ''}
      </p>
      {error.retry ? (
        <button
          type="button"
          class="primary"
          disabled={props.running}
          onClick={props.onRetry}
          data-testid="retry"
        >
          <RetryIcon /> Retry
        </button>
      ) : null}
      <button type="button" onClick={props.onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

/** Who the player plays in this game; a change applies from the next turn on. */
function PersonaChooser(props: { session: SessionView; disabled: boolean; onChanged: () => void }) {
  const { api } = useApp();
  const [personas, setPersonas] = useState<PersonaView[]>([]);
  const [problem, setProblem] = useState('');
  useEffect(() => {
    api
      .personas()
      .then(setPersonas)
      .catch(() => undefined);
  }, [props.session.id]);
  return (
    <label class="persona-chooser">
      <PersonIcon /> <span class="visually-hidden">Playing as</span>
      <select
        data-testid="play-persona"
        value={props.session.personaId ?? ''}
        disabled={props.disabled}
        onChange={async (e) => {
          const value = (e.currentTarget as HTMLSelectElement).value;
          try {
            await api.setSessionPersona(props.session.id, value === '' ? null : value);
            setProblem('');
            props.onChanged();
          } catch (err) {
            setProblem(err instanceof Error ? err.message : String(err));
          }
        }}
      >
        <option value="">No persona</option>
        {personas.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
      {problem ? (
        <span class="error" role="alert">
          {problem}
        </span>
      ) : null}
    </label>
  );
}

function LiveView({ live }: { live: LiveTurn }) {
  return (
    <>
      {live.input ? (
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

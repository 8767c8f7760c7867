// The play screen: the toolbar, the story (Markdown, streamed), the pending mini-game, the input, and the
// side panels (state, world, tree, saves, author). Each part is its own component (play/*.tsx,
// play/panels/); this one wires them to the play state (use-play.ts) and keeps the story's end and the
// input in view and focus.
import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  AUTO_READ_STORAGE,
  remember,
  storedAutoRead,
  storedShowRules,
  useApp,
  useClient,
} from '../app/context.ts';
import { useStableCallback } from '../lib/stable-callback.ts';
import { Checkbox } from '../ui/checkbox.tsx';
import { PlayApi } from './play-api.ts';
import { Composer } from './composer.tsx';
import { PendingMinigame, pendingOf } from '../minigames/pending-minigame.tsx';
import { SidePanels } from './panels/side-panels.tsx';
import type { LiveTurn, PhaseLabel } from './play-state.ts';
import { usePlay } from './use-play.ts';
import { StoryLog } from './story.tsx';
import { TurnToolbar } from './toolbar.tsx';
import { TablePanel } from '../table/index.ts';
import { useAutoRead } from './turn-media-auto-read.ts';
import { LiveReading } from './turn-media-live.tsx';

const PHASE_TEXT: Record<PhaseLabel, string> = {
  thinking: 'Thinking…',
  rolling: 'Rolling…',
  narrating: 'Narrating…',
  saving: 'Saving…',
};

/** What the turn being played is doing, and with which tool (empty between turns). */
function PhaseLine({ live }: { live: LiveTurn | null }) {
  return (
    <p class="phase" role="status" data-testid="phase">
      {live ? `${PHASE_TEXT[live.phase]}${live.tool ? ` (${live.tool})` : ''}` : ''}
    </p>
  );
}

/** The "Read new turns aloud" switch, kept in this browser (app/context.ts, AUTO_READ_STORAGE). */
function useAutoReadSwitch() {
  const [autoRead, setAutoRead] = useState(storedAutoRead);
  const toggle = (on: boolean): void => {
    setAutoRead(on);
    remember(AUTO_READ_STORAGE, on);
  };
  return { autoRead, toggle };
}

export function Play({ sessionId }: { sessionId: string }) {
  const { reportModel } = useApp();
  const play = usePlay(useClient(PlayApi), sessionId, reportModel);
  const { session, head, live, busy, tree } = play.state;
  const running = live !== null || busy;
  return (
    <div class="play">
      <StoryColumn sessionId={sessionId} play={play} running={running} />
      <SidePanels
        sessionId={sessionId}
        session={session}
        head={head}
        tree={tree}
        wholeTree={play.state.wholeTree}
        onTreeShown={() => void play.wholeTree()}
        fields={play.state.fields}
        running={running}
        turnCached={play.turnCached}
        onJump={(id) => void play.jump(id)}
        onReload={() => void play.reload()}
      />
    </div>
  );
}

/**
 * The story's end kept in view when a turn is added or streams on (not when older turns are drawn above),
 * and the input given the focus when nothing is running or waiting.
 */
function useStoryInView(state: ReturnType<typeof usePlay>['state'], running: boolean, pending: boolean) {
  const { story, live } = state;
  const input = useRef<HTMLTextAreaElement>(null);
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [story[story.length - 1]?.id, live?.narration.length]);
  useEffect(() => {
    if (!running && !pending) input.current?.focus();
  }, [running, pending]);
  return { end, input };
}

/** The story's column: the shared table, the toolbar, the story, the phase, the mini-game and the input. */
function StoryColumn({
  sessionId,
  play,
  running,
}: {
  sessionId: string;
  play: ReturnType<typeof usePlay>;
  running: boolean;
}) {
  const { head, live, error } = play.state;
  const pending = pendingOf(head);
  const { end, input } = useStoryInView(play.state, running, pending !== null);
  // At a shared table only the owner and game masters steer the story (docs/multiplayer.md).
  const [steers, setSteers] = useState(true);

  return (
    <div class="story-col">
      <TablePanel sessionId={sessionId} onStory={() => void play.reload()} onSteers={setSteers} />
      <PlayToolbar play={play} running={running} steers={steers} />
      <StoryWithReading
        sessionId={sessionId}
        play={play}
        disabled={running || pending !== null || !steers}
        endRef={end}
      />
      <PhaseLine live={live} />
      <PendingMinigame
        pending={pending}
        running={running}
        headId={head?.id}
        onResult={(interaction) => void play.send({ interaction }, null)}
      />
      <Composer
        error={error}
        running={running}
        pending={pending !== null}
        inputRef={input}
        onSend={(value) => void play.send({ input: value }, value)}
        onRetry={() => void play.retry()}
        onDismiss={play.dismiss}
      />
    </div>
  );
}

/** The turn controls, wired to the play actions. */
function PlayToolbar({
  play,
  running,
  steers,
}: {
  play: ReturnType<typeof usePlay>;
  running: boolean;
  steers: boolean;
}) {
  return (
    <TurnToolbar
      session={play.state.session}
      head={play.state.head}
      running={running}
      live={play.state.live !== null}
      steers={steers}
      onUndo={() => void play.undo()}
      onRegenerate={() => void play.regenerate()}
      onStop={() => play.stop()}
      onPersonaChanged={() => void play.reload()}
    />
  );
}

/**
 * The story log, its end (kept in view), the turn read aloud as it streams (turn-media-auto-read.ts), and
 * (when the server speaks) the switch that reads new turns aloud.
 */
function StoryWithReading({
  sessionId,
  play,
  disabled,
  endRef,
}: {
  sessionId: string;
  play: ReturnType<typeof usePlay>;
  disabled: boolean;
  endRef: RefObject<HTMLDivElement | null>;
}) {
  const { info } = useApp();
  const { story, tree, head, live } = play.state;
  const showRules = useState(storedShowRules)[0];
  const { autoRead, toggle } = useAutoReadSwitch();
  const { autoReadTurnId, liveReadTurnId, endLiveRead } = useAutoRead(
    autoRead && info.speech === true,
    head?.id,
    live,
  );
  const onSwipe = useStableCallback((id: string) => void play.swipe(id));
  const onEdit = useStableCallback((turnId: string, text: string) => void play.edit(turnId, text));
  const onOlder = useStableCallback(() => void play.older());
  return (
    <>
      <StoryLog
        story={story}
        tree={tree}
        head={head}
        live={live}
        disabled={disabled}
        showRules={showRules}
        autoReadTurnId={autoReadTurnId}
        onSwipe={onSwipe}
        onEdit={onEdit}
        onOlder={onOlder}
      />
      <div ref={endRef} class="story-end" />
      {liveReadTurnId !== null ? (
        <LiveReading key={liveReadTurnId} sessionId={sessionId} turnId={liveReadTurnId} onEnd={endLiveRead} />
      ) : null}
      {info.speech === true ? (
        <Checkbox label="Read new turns aloud" testId="auto-read" checked={autoRead} onChange={toggle} />
      ) : null}
    </>
  );
}

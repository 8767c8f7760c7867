// The play screen: the toolbar, the story (Markdown, streamed), the pending mini-game, the input, and the
// side panels (state, world, tree, saves, author). Each part is its own component (play/*.tsx,
// play/panels/); this one wires them to the play state (use-play.ts) and keeps the story's end and the
// input in view and focus.
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
import type { PhaseLabel } from './play-state.ts';
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

export function Play({ sessionId }: { sessionId: string }) {
  const { reportModel, info } = useApp();
  const play = usePlay(useClient(PlayApi), sessionId, reportModel);
  const { session, story, head, live, error, busy, tree } = play.state;
  const input = useRef<HTMLTextAreaElement>(null);
  const end = useRef<HTMLDivElement>(null);
  const pending = pendingOf(head);
  const running = live !== null || busy;
  const showRules = useState(storedShowRules)[0];
  const [autoRead, setAutoRead] = useState(storedAutoRead);
  const { autoReadTurnId, liveReadTurnId, endLiveRead } = useAutoRead(
    autoRead && info.speech === true,
    head?.id,
    live,
  );
  // At a shared table only the owner and game masters steer the story (docs/multiplayer.md).
  const [steers, setSteers] = useState(true);

  const onSwipe = useStableCallback((id: string) => void play.swipe(id));
  const onEdit = useStableCallback((turnId: string, text: string) => void play.edit(turnId, text));
  const onOlder = useStableCallback(() => void play.older());

  // To the story's end when a turn is added or streams on (not when older turns are drawn above).
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [story[story.length - 1]?.id, live?.narration.length]);
  useEffect(() => {
    if (!running && !pending) input.current?.focus();
  }, [running, pending]);

  return (
    <div class="play">
      <div class="story-col">
        <TablePanel sessionId={sessionId} onStory={() => void play.reload()} onSteers={setSteers} />
        <TurnToolbar
          session={session}
          head={head}
          running={running}
          live={live !== null}
          steers={steers}
          onUndo={() => void play.undo()}
          onRegenerate={() => void play.regenerate()}
          onStop={() => play.stop()}
          onPersonaChanged={() => void play.reload()}
        />
        <StoryLog
          story={story}
          tree={tree}
          head={head}
          live={live}
          disabled={running || pending !== null || !steers}
          showRules={showRules}
          autoReadTurnId={autoReadTurnId}
          onSwipe={onSwipe}
          onEdit={onEdit}
          onOlder={onOlder}
        />
        <div ref={end} class="story-end" />
        {liveReadTurnId !== null ? (
          <LiveReading
            key={liveReadTurnId}
            sessionId={sessionId}
            turnId={liveReadTurnId}
            onEnd={endLiveRead}
          />
        ) : null}
        {info.speech === true ? (
          <Checkbox
            label="Read new turns aloud"
            testId="auto-read"
            checked={autoRead}
            onChange={(on) => {
              setAutoRead(on);
              remember(AUTO_READ_STORAGE, on);
            }}
          />
        ) : null}
        <p class="phase" role="status" data-testid="phase">
          {live ? `${PHASE_TEXT[live.phase]}${live.tool ? ` (${live.tool})` : ''}` : ''}
        </p>
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

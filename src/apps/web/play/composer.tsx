// Where the player writes: the input (kept when a turn fails, so nothing typed is lost), and the failed or
// answered turn just above it with Retry / Dismiss.
import type { Ref } from 'preact';
import { useLayoutEffect, useState } from 'preact/hooks';
import { MAX_INPUT_CHARS } from '../../../engine/turn/browser.ts';
import { AlertIcon, RetryIcon } from '../ui/icons.tsx';
import type { PlayError } from './play-state.ts';

/**
 * The box's text. A failed turn gives the player's words back, so nothing typed is lost: in the same commit
 * that shows the problem (a layout effect), so no frame shows the answer beside an emptied box.
 */
function useComposerText(error: PlayError | null) {
  const [text, setText] = useState('');
  useLayoutEffect(() => {
    if (error?.input) setText((current) => (current === '' ? (error.input ?? '') : current));
  }, [error]);
  return [text, setText] as const;
}

export function Composer(props: {
  error: PlayError | null;
  running: boolean;
  /** A mini-game is pending: it must be finished first. */
  pending: boolean;
  inputRef: Ref<HTMLTextAreaElement>;
  onSend: (text: string) => void;
  onRetry: () => void;
  onDismiss: () => void;
}) {
  const { error, running, pending } = props;
  const [text, setText] = useComposerText(error);

  const send = (event?: Event): void => {
    event?.preventDefault();
    const value = text.trim();
    if (value === '' || running || pending) return;
    setText('');
    props.onSend(value);
  };

  return (
    <div class="composer-wrap">
      {error ? (
        <TurnProblem error={error} running={running} onRetry={props.onRetry} onDismiss={props.onDismiss} />
      ) : null}
      <form class="composer" onSubmit={send}>
        <label class="visually-hidden" for="player-input">
          What do you do?
        </label>
        <PlayerInput
          inputRef={props.inputRef}
          text={text}
          disabled={running || pending}
          pending={pending}
          onText={setText}
          onEnter={send}
        />
        <button
          type="submit"
          class="primary"
          disabled={running || pending || text.trim() === ''}
          data-testid="send"
        >
          Send
        </button>
      </form>
    </div>
  );
}

/** The player's box: Enter sends, Shift+Enter is a new line. */
function PlayerInput(props: {
  inputRef: Ref<HTMLTextAreaElement>;
  text: string;
  disabled: boolean;
  pending: boolean;
  onText: (text: string) => void;
  onEnter: (event: Event) => void;
}) {
  return (
    <textarea
      id="player-input"
      ref={props.inputRef}
      data-testid="player-input"
      rows={2}
      maxLength={MAX_INPUT_CHARS}
      placeholder={
        props.pending
          ? 'Finish the mini-game first'
          : 'What do you do? (Enter to send, Shift+Enter for a new line)'
      }
      value={props.text}
      disabled={props.disabled}
      onInput={(e) => props.onText((e.currentTarget as HTMLTextAreaElement).value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) props.onEnter(e);
      }}
    />
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

// A delete button that asks first, for the Library's cartridges and versions.
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A delete button that asks first: the first press shows "Confirm" and "Cancel" (focus on Cancel, so a
 * second Enter does not delete by accident); Escape cancels.
 */
export function ConfirmDelete(props: {
  label: string;
  question: string;
  testId: string;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) cancel.current?.focus();
  }, [asking]);
  const close = (): void => {
    setAsking(false);
    setTimeout(() => opener.current?.focus(), 0);
  };
  if (!asking) {
    return (
      <button type="button" ref={opener} data-testid={props.testId} onClick={() => setAsking(true)}>
        {props.label}
      </button>
    );
  }
  return (
    <fieldset
      aria-label={props.question}
      style={{ display: 'inline', border: 0, margin: 0, padding: 0 }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') close();
      }}
    >
      <span class="error">{props.question}</span>{' '}
      <button
        type="button"
        class="primary"
        data-testid={`${props.testId}-confirm`}
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        Confirm
      </button>{' '}
      <button type="button" ref={cancel} data-testid={`${props.testId}-cancel`} onClick={close}>
        Cancel
      </button>
    </fieldset>
  );
}

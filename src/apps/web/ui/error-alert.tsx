// A failure the player should hear about at once: announced by screen readers (role="alert"), shown only
// while there is one.

export function ErrorAlert({ text, testId }: { text: string | null | undefined; testId?: string }) {
  if (!text) return null;
  return (
    <p class="error" role="alert" data-testid={testId}>
      {text}
    </p>
  );
}

// The builder screen's door: it imports the builder (with CodeMirror) only when the screen is opened, so
// the play page's bundle does not carry the editor.
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';

type BuilderView = ComponentType<{ draftId?: string | undefined }>;

let loaded: BuilderView | undefined;

export function BuilderRoute({ draftId }: { draftId?: string | undefined }) {
  const [View, setView] = useState<BuilderView | undefined>(() => loaded);
  const [error, setError] = useState('');
  useEffect(() => {
    if (View) return;
    import('../builder/builder.tsx')
      .then((m) => {
        loaded = m.Builder;
        setView(() => m.Builder);
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [View]);
  if (error)
    return (
      <p class="error" role="alert">
        The builder could not be loaded: {error}
      </p>
    );
  if (!View) return <p class="muted">Loading the builder…</p>;
  return <View draftId={draftId} />;
}

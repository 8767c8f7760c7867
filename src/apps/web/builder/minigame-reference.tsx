// The builder's mini-game reference (GET /v1/minigames, read when first opened): each game's settings a
// cartridge may give it under `_pending_interaction.config`, with their bounds, its narrative hooks and
// the metrics its result carries back to the resolver event — what an author needs to start one.
import { useState } from 'preact/hooks';
import type { ConfigFieldView, MinigameView } from '../../contract/index.ts';
import type { BuilderApi } from './builder-api.ts';
import { fieldBounds } from './draft-text.ts';
import { failureText } from '../lib/errors.ts';
import { ErrorAlert } from '../ui/error-alert.tsx';

function Fields({ title, fields }: { title: string; fields: Readonly<Record<string, ConfigFieldView>> }) {
  const entries = Object.entries(fields);
  if (entries.length === 0) return null;
  return (
    <>
      <h4>{title}</h4>
      <ul class="list-plain">
        {entries.map(([name, f]) => (
          <li key={name}>
            <code>{name}</code> ({fieldBounds(f)}
            {f.required ? ', required' : ''}){f.description ? `: ${f.description}` : ''}
          </li>
        ))}
      </ul>
    </>
  );
}

export function MinigameReference({ api }: { api: BuilderApi }) {
  const [games, setGames] = useState<readonly MinigameView[] | undefined>();
  const [error, setError] = useState('');
  const load = (): void => {
    if (games !== undefined) return;
    api
      .minigames()
      .then(setGames)
      .catch((e) => setError(failureText(e)));
  };
  return (
    <details class="card" data-testid="minigame-reference" onToggle={load}>
      <summary>Mini-game reference</summary>
      <p class="muted">
        Start one with a <code>set</code> of <code>state._pending_interaction</code> to{' '}
        <code>
          {
            '{ interaction_type: minigame, minigame_id, resolver_event, config: { difficulty, assets, narrative_hooks } }'
          }
        </code>
        ; its result comes back to the resolver event as <code>inputs.status</code>,{' '}
        <code>inputs.metrics</code> and <code>inputs.data</code>.
      </p>
      <ErrorAlert text={error} />
      {games === undefined && !error ? <p class="muted">Loading…</p> : null}
      {(games ?? []).map((g) => (
        <section key={g.minigame_id} data-testid="minigame-doc">
          <h3>
            <code>{g.minigame_id}</code> {g.title ? `— ${g.title}` : ''}
          </h3>
          {g.description ? <p>{g.description}</p> : null}
          <Fields title="config.difficulty" fields={g.difficulty} />
          <Fields title="config.assets" fields={g.assets} />
          {Object.keys(g.hooks).length > 0 ? (
            <>
              <h4>config.narrative_hooks</h4>
              <ul class="list-plain">
                {Object.entries(g.hooks).map(([name, text]) => (
                  <li key={name}>
                    <code>{name}</code>: {text}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {g.metrics.length > 0 ? (
            <>
              <h4>Metrics sent back</h4>
              <ul class="list-plain">
                {g.metrics.map((m) => (
                  <li key={m.name}>
                    <code>{m.name}</code> ({m.kind}){m.description ? `: ${m.description}` : ''}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </section>
      ))}
    </details>
  );
}

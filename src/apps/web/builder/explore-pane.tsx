// The builder's Explore pane: the draft played at random, as `mnesos explore` does (POST
// /v1/builder/explore): each violation with its shortest sequence of steps, then what no playthrough
// reached (events, branch arms, steps, notes, lore, World Info), each at its file:line:col.
import { useState } from 'preact/hooks';
import type { ExploreStepView, ExploreView, LocatedView } from '../../contract/index.ts';
import type { BuilderApi, BuilderFiles } from './builder-api.ts';
import { failureWithProblems } from '../lib/errors.ts';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { NumberField } from '../ui/number-field.tsx';

const where = (p: LocatedView['place']): string => `${p.file}:${p.line}:${p.col}`;

function stepText(step: ExploreStepView): string {
  switch (step.kind) {
    case 'event':
      return `${step.event} ${JSON.stringify(step.inputs)}`;
    case 'minigame':
      return `mini-game ${step.result.minigame_id}: ${step.result.status}`;
    case 'wait':
      return `/wait ${step.duration}`;
  }
}

function Missed({ title, items }: { title: string; items: readonly LocatedView[] }) {
  if (items.length === 0) return null;
  return (
    <>
      <h4>{title}</h4>
      <ul class="list-plain">
        {items.map((m, i) => (
          <li key={i} data-testid="explore-missed">
            <code>{where(m.place)}</code> {m.what}
          </li>
        ))}
      </ul>
    </>
  );
}

export function ExploreReportView({ report }: { report: ExploreView }) {
  const c = report.coverage;
  const count = (part: { total: number; missed: readonly unknown[] }) =>
    `${part.total - part.missed.length}/${part.total}`;
  return (
    <div data-testid="explore-report">
      <p>
        {report.runs} runs of up to {report.depth} steps, seed {report.seed}: {report.stepsPlayed} steps,{' '}
        {report.eventsRun} events{report.stoppedEarly ? ' (stopped early: the time was up)' : ''}.
      </p>
      <h3>Violations</h3>
      {report.violations.length === 0 ? <p class="muted">None found.</p> : null}
      <ol>
        {report.violations.map((v, i) => (
          <li key={i} data-testid="explore-violation">
            <strong>{v.kind}</strong>: {v.place ? <code>{where(v.place)}</code> : null} {v.message}
            <p class="muted">
              Shortest sequence: {v.steps.length} step{v.steps.length === 1 ? '' : 's'} (from{' '}
              {v.originalLength})
            </p>
            <ol>
              {v.steps.map((s, j) => (
                <li key={j}>
                  <code>{stepText(s)}</code> <span class="muted">seed {s.seed}</span>
                </li>
              ))}
            </ol>
          </li>
        ))}
      </ol>
      {report.violationsDropped > 0 ? <p>{report.violationsDropped} more violations not kept.</p> : null}
      <h3>Coverage</h3>
      <p data-testid="explore-coverage">
        events {count(c.events)}, branches {count(c.branches)}, steps {count(c.steps)}, notes {count(c.notes)}
        , lore {count(c.lore)}, World Info {count(c.worldInfo)}
      </p>
      <Missed title="Events never run" items={c.events.missed} />
      <Missed title="Branches never taken" items={c.branches.missed} />
      <Missed title="Steps never reached" items={c.steps.missed} />
      <Missed title="Notes never shown" items={c.notes.missed} />
      <Missed title="Lore never activated" items={c.lore.missed} />
      {c.worldInfo.missed.length > 0 ? (
        <>
          <h4>World Info never activated</h4>
          <ul class="list-plain">
            {c.worldInfo.missed.map((w) => (
              <li key={w.uid}>{w.what}</li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

export function ExplorePane({ api, files }: { api: BuilderApi; files: () => BuilderFiles }) {
  const [runs, setRuns] = useState('50');
  const [depth, setDepth] = useState('20');
  const [seed, setSeed] = useState('1');
  const [report, setReport] = useState<ExploreView | undefined>();
  const [error, setError] = useState('');
  const [running, setRunning] = useState(false);

  const run = async (e: Event): Promise<void> => {
    e.preventDefault();
    setError('');
    const numbers = [Number(runs), Number(depth), Number(seed)];
    if (!numbers.every((n) => Number.isInteger(n) && n >= 0))
      return setError('runs, depth and seed: whole numbers');
    setRunning(true);
    try {
      setReport(
        await api.explore({
          files: { ...files() },
          runs: numbers[0]!,
          depth: numbers[1]!,
          seed: numbers[2]!,
        }),
      );
    } catch (failure) {
      setReport(undefined);
      setError(failureWithProblems(failure));
    } finally {
      setRunning(false);
    }
  };

  return (
    <section class="card" aria-labelledby="explore-h">
      <h2 id="explore-h">Explore</h2>
      <p class="muted">
        Random playthroughs of the draft (as <code>mnesos explore</code>): what breaks, and what is never
        reached.
      </p>
      <form onSubmit={run} class="try-form">
        <NumberField label="Runs" min={1} max={200} value={runs} onInput={setRuns} testId="explore-runs" />
        <NumberField
          label="Steps per run"
          min={1}
          max={50}
          value={depth}
          onInput={setDepth}
          testId="explore-depth"
        />
        <NumberField label="Seed" min={0} value={seed} onInput={setSeed} testId="explore-seed" />
        <button type="submit" disabled={running} data-testid="explore-run">
          {running ? 'Exploring…' : 'Explore'}
        </button>
      </form>
      <div aria-live="polite" data-testid="explore-result">
        <ErrorAlert text={error} />
        {report ? <ExploreReportView report={report} /> : null}
      </div>
    </section>
  );
}

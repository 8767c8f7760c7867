// Prometheus metrics in the text exposition format, kept by hand (no dependency): counters, one gauge
// callback, and histograms with fixed buckets. Label values come from the server's own vocabulary (route
// patterns, outcome codes, role names), never from request text, so the series count stays bounded.

import type { ModelRole } from '../../adapters/llm/index.ts';
import type { SessionObserver, TurnOutcome } from '../../engine/session/index.ts';
import type { TurnRecord } from '../../engine/turn/index.ts';

type Labels = Readonly<Record<string, string>>;

/**
 * A series' key in its map: the label names and values as given, joined by a character no label holds
 * (cheaper than `labelText`'s escaping, which is only needed when rendering).
 */
function seriesKey(labels: Labels): string {
  let key = '';
  for (const name in labels) key += `${name}\u0000${labels[name]}\u0000`;
  return key;
}

function labelText(labels: Labels): string {
  const entries = Object.entries(labels);
  if (entries.length === 0) return '';
  return `{${entries.map(([k, v]) => `${k}="${v.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n')}"`).join(',')}}`;
}

class Counter {
  readonly #values = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, by = 1): void {
    const key = seriesKey(labels);
    const entry = this.#values.get(key);
    if (entry) entry.value += by;
    else this.#values.set(key, { labels, value: by });
  }
  get(labels: Labels = {}): number {
    return this.#values.get(seriesKey(labels))?.value ?? 0;
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const { labels, value } of this.#values.values())
      lines.push(`${this.name}${labelText(labels)} ${value}`);
    return lines.join('\n');
  }
}

class Histogram {
  readonly #series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[],
  ) {}
  observe(value: number, labels: Labels = {}): void {
    const key = seriesKey(labels);
    let series = this.#series.get(key);
    if (!series) {
      series = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    this.buckets.forEach((bound, i) => {
      if (value <= bound) series.counts[i] = (series.counts[i] ?? 0) + 1;
    });
    series.sum += value;
    series.count += 1;
  }
  count(labels: Labels = {}): number {
    return this.#series.get(seriesKey(labels))?.count ?? 0;
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const { labels, counts, sum, count } of this.#series.values()) {
      this.buckets.forEach((bound, i) => {
        lines.push(`${this.name}_bucket${labelText({ ...labels, le: String(bound) })} ${counts[i] ?? 0}`);
      });
      lines.push(`${this.name}_bucket${labelText({ ...labels, le: '+Inf' })} ${count}`);
      lines.push(`${this.name}_sum${labelText(labels)} ${sum}`);
      lines.push(`${this.name}_count${labelText(labels)} ${count}`);
    }
    return lines.join('\n');
  }
}

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export class Metrics {
  readonly requests = new Counter(
    'mnesos_http_requests_total',
    'HTTP requests by method, route pattern and status.',
  );
  readonly turns = new Counter(
    'mnesos_turns_total',
    'Turns by outcome (committed, replayed, answered, conflict, aborted, timeout, model, invalid, too-costly, error).',
  );
  readonly turnSeconds = new Histogram(
    'mnesos_turn_duration_seconds',
    'Time from the start of a turn to its commit or failure.',
    SECONDS_BUCKETS,
  );
  readonly modelSeconds = new Histogram(
    'mnesos_model_call_duration_seconds',
    'Model call latency by role.',
    SECONDS_BUCKETS,
  );
  readonly modelCalls = new Counter('mnesos_model_calls_total', 'Model calls by role and result.');
  readonly tokens = new Counter(
    'mnesos_model_tokens_total',
    'Model tokens by role and kind (input, output, cached_input).',
  );
  readonly errors = new Counter('mnesos_http_errors_total', 'Error answers by error code.');
  #gauges: Array<{ name: string; help: string; read: () => number }> = [];

  gauge(name: string, help: string, read: () => number): void {
    this.#gauges.push({ name, help, read });
  }

  /** Hooks for the session service. */
  observer(): SessionObserver {
    return {
      onTurn: (outcome: TurnOutcome, durationMs: number, record?: TurnRecord) => {
        this.turns.inc({ outcome });
        this.turnSeconds.observe(durationMs / 1000, { outcome });
        if (record !== undefined && (outcome === 'committed' || outcome === 'conflict')) {
          for (const [role, usage] of Object.entries(record.usage)) {
            if (usage.calls === 0) continue;
            this.tokens.inc({ role, kind: 'input' }, usage.inputTokens);
            this.tokens.inc({ role, kind: 'output' }, usage.outputTokens);
            this.tokens.inc({ role, kind: 'cached_input' }, usage.cachedInputTokens);
          }
        }
      },
      onModelCall: (role: ModelRole, durationMs: number, ok: boolean) => {
        this.modelSeconds.observe(durationMs / 1000, { role });
        this.modelCalls.inc({ role, result: ok ? 'ok' : 'error' });
      },
    };
  }

  render(): string {
    const parts = [
      this.requests,
      this.errors,
      this.turns,
      this.turnSeconds,
      this.modelCalls,
      this.modelSeconds,
      this.tokens,
    ].map((m) => m.render());
    for (const g of this.#gauges)
      parts.push(`# HELP ${g.name} ${g.help}\n# TYPE ${g.name} gauge\n${g.name} ${g.read()}`);
    return `${parts.join('\n')}\n`;
  }
}

// The builder's Explore pane: a draft's files loaded as a cartridge and explored as `mnesos explore`
// does (the same explorer, the same report), within the builder's bounds: fewer runs and steps, and a
// deadline after which it reports what it reached.

import type { Diagnostic } from '../../../core/diagnostics.ts';
import { loadCartridgeFromFiles } from '../../../adapters/files/index.ts';
import { explore, ExploreError, type ExploreReport } from '../explore/index.ts';
import { type BuilderFiles, filesMap } from './draft-files.ts';
import { BUILDER_EXPLORE_MS, MAX_BUILDER_EXPLORE_DEPTH, MAX_BUILDER_EXPLORE_RUNS } from './limits.ts';

export interface ExploreDraftInput {
  readonly files: BuilderFiles;
  readonly runs?: number;
  readonly depth?: number;
  readonly seed?: number;
  readonly state?: Readonly<Record<string, unknown>>;
}

export type ExploreDraftOutcome =
  | { readonly kind: 'explored'; readonly report: ExploreReport }
  | { readonly kind: 'invalid'; readonly errors: readonly Diagnostic[] }
  | { readonly kind: 'refused'; readonly message: string };

function bounded(name: string, value: number | undefined, max: number): string | undefined {
  return value !== undefined && value > max
    ? `${name} is ${value}; the builder explores at most ${max} (MAX_BUILDER_EXPLORE_${name.toUpperCase()}); mnesos explore takes more`
    : undefined;
}

export async function exploreDraft(
  input: ExploreDraftInput,
  now: () => number = () => performance.now(),
): Promise<ExploreDraftOutcome> {
  const over =
    bounded('runs', input.runs, MAX_BUILDER_EXPLORE_RUNS) ??
    bounded('depth', input.depth, MAX_BUILDER_EXPLORE_DEPTH);
  if (over !== undefined) return { kind: 'refused', message: over };
  const loaded = loadCartridgeFromFiles(filesMap(input.files), 'draft');
  if (!loaded.ok) return { kind: 'invalid', errors: loaded.errors };
  try {
    const report = await explore(loaded.cartridge, {
      runs: input.runs ?? 50,
      depth: input.depth ?? 20,
      ...(input.seed === undefined ? {} : { seed: input.seed }),
      ...(input.state === undefined ? {} : { start: input.state }),
      deadline: now() + BUILDER_EXPLORE_MS,
      now,
    });
    return { kind: 'explored', report };
  } catch (error) {
    if (error instanceof ExploreError) return { kind: 'refused', message: error.message };
    throw error;
  }
}

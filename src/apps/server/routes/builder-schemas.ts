// Request schemas of the builder routes: a draft's files (the cartridge's text files by name, each within
// its loader limit; an unknown name is refused naming it), and what check, complete and try take.

import { z } from 'zod';
import { CARTRIDGE_FILES } from '../../../core/cartridge/index.ts';
import { MAX_EVENT_NAME_CHARS } from '../../../engine/session/index.ts';
import {
  MAX_BUILDER_EXPLORE_DEPTH,
  MAX_BUILDER_EXPLORE_RUNS,
  MAX_EXPLORE_SEED,
} from '../../../tools/authoring/builder/index.ts';
import { seed } from '../schemas.ts';

export const builderFiles = z.strictObject(
  Object.fromEntries(CARTRIDGE_FILES.map((s) => [s.name, z.string().max(s.maxBytes).optional()])),
) as unknown as z.ZodType<Record<string, string | undefined>>;

const fileName = z.enum(CARTRIDGE_FILES.map((s) => s.name) as [string, ...string[]]);

export const checkBody = z.strictObject({ files: builderFiles });

/** The largest text a completion request carries (the largest cartridge file). */
const MAX_COMPLETION_TEXT = Math.max(...CARTRIDGE_FILES.map((s) => s.maxBytes));

export const completeBody = z.strictObject({
  file: fileName,
  text: z.string().max(MAX_COMPLETION_TEXT),
  offset: z.number().int().min(0).max(MAX_COMPLETION_TEXT),
  /** The rules file(s) that last compiled, so completion knows the state while `text` is broken. */
  rules: builderFiles.optional(),
});

/** Hover takes what completion takes. */
export const hoverBody = completeBody;

export const tryBody = z.strictObject({
  files: builderFiles,
  event: z.string().min(1).max(MAX_EVENT_NAME_CHARS),
  inputs: z.record(z.string(), z.unknown()).optional(),
  /** The state to run on: the fields that matter (or a whole state), laid over the initial state. */
  state: z.record(z.string(), z.unknown()).optional(),
  seed: seed.optional(),
});

/** What the Explore pane sends: the draft, and the exploration's bounds (the builder's, below the command's). */
export const exploreBody = z.strictObject({
  files: builderFiles,
  runs: z.number().int().min(1).max(MAX_BUILDER_EXPLORE_RUNS).optional(),
  depth: z.number().int().min(1).max(MAX_BUILDER_EXPLORE_DEPTH).optional(),
  seed: z.number().int().min(0).max(MAX_EXPLORE_SEED).optional(),
  /** The state every playthrough starts from: the fields that matter (or a whole state), laid over the initial state. */
  state: z.record(z.string(), z.unknown()).optional(),
});

// A principal's model settings (provider, base URL or model file, a model per role, temperature), as one
// zod/mini schema: the server reads request bodies and stored settings with it (engine/session adds the
// check only the server can make: the model file's path is absolute on its own machine), the API's answer
// carries it (apps/contract), and the browser's settings form shows its limits. Pure.

import * as z from 'zod/mini';
import { baseUrlProblem, MAX_BASE_URL_CHARS } from '../base-url-policy.ts';
import { SETTINGS_PROVIDERS } from '../model-providers.ts';

/** Characters of a model name (`llama3.1:8b`, `gpt-4o-mini`, `org/model@rev`). */
export const MAX_MODEL_NAME_CHARS = 200;
/** The sampling temperature range every supported provider accepts. */
export const MIN_TEMPERATURE = 0;
export const MAX_TEMPERATURE = 2;
/** Characters of a local model file's path. */
export const MAX_MODEL_FILE_PATH_CHARS = 4_096;

// Control characters would end up in HTTP bodies and logs; no real model name or path has one.
const CONTROL = /\p{Cc}/u;
const noControl = z.refine<string>((text) => !CONTROL.test(text), 'must not contain control characters');

/** A model name: trimmed, not empty, at most MAX_MODEL_NAME_CHARS, no control characters. */
export const modelNameSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'must not be empty'),
    z.maxLength(
      MAX_MODEL_NAME_CHARS,
      `must be at most ${MAX_MODEL_NAME_CHARS} characters (MAX_MODEL_NAME_CHARS)`,
    ),
    noControl,
  );

/**
 * A base URL: the one base-URL policy (core/base-url-policy.ts), without credentials (they would be a
 * secret stored in the database in clear text).
 */
const baseUrlSchema = z.string().check(
  z.maxLength(MAX_BASE_URL_CHARS, `must be at most ${MAX_BASE_URL_CHARS} characters (MAX_BASE_URL_CHARS)`),
  z.superRefine((text, ctx) => {
    const problem = baseUrlProblem(text, { allowCredentials: false });
    if (problem !== undefined) ctx.issues.push({ code: 'custom', message: problem.message, input: text });
  }),
);

// What can be said of the path anywhere; the server checks that it is absolute on its machine, and
// engine/session/principal-models.ts checks the file itself.
const modelFileSchema = z.string().check(
  z.trim(),
  z.minLength(1, 'must not be empty'),
  z.maxLength(
    MAX_MODEL_FILE_PATH_CHARS,
    `must be at most ${MAX_MODEL_FILE_PATH_CHARS} characters (MAX_MODEL_FILE_PATH_CHARS)`,
  ),
  noControl,
  z.refine<string>((path) => path.toLowerCase().endsWith('.gguf'), 'must name a .gguf file'),
);

const temperatureRange = `must be from ${MIN_TEMPERATURE} to ${MAX_TEMPERATURE}`;

export const modelSettingsSchema = z.strictObject({
  /**
   * Where requests go instead of the server's own provider (needs `--allow-user-base-url`); `file` runs
   * `modelFile` in the server's process.
   */
  provider: z.optional(z.enum(SETTINGS_PROVIDERS)),
  /** A GGUF model on the server's machine (provider `file`; needs `--allow-user-base-url`). */
  modelFile: z.optional(modelFileSchema),
  /** The provider's base URL, usually ending in `/v1` (needs `--allow-user-base-url`). */
  baseUrl: z.optional(baseUrlSchema),
  /** A model per role; a role left out uses the server's model. */
  models: z.optional(
    z.strictObject({
      director: z.optional(modelNameSchema),
      narrator: z.optional(modelNameSchema),
      npc: z.optional(modelNameSchema),
    }),
  ),
  temperature: z.optional(
    z.number().check(z.gte(MIN_TEMPERATURE, temperatureRange), z.lte(MAX_TEMPERATURE, temperatureRange)),
  ),
});

export type ModelSettings = z.infer<typeof modelSettingsSchema>;

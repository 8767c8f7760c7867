// Bounds of the terminal game and the `turn` command. Each has a test at the limit and just past it
// (test/apps/cli/files.test.ts, test/apps/cli/commands.test.ts).

import { MAX_NAME_LENGTH } from '../../../adapters/store/limits.ts';

/** Bytes of a `--messages` file, read whole; the cap keeps a mistaken path from filling memory. */
export const MAX_MESSAGES_FILE_BYTES = 4 * 1024 * 1024;
/** Messages in a `--messages` file (the turn engine keeps only the recent ones for its prompts). */
export const MAX_STORY_MESSAGES = 1_000;
/** Characters of an `--interaction` JSON text (the engine bounds the parsed fields again). */
export const MAX_INTERACTION_ARG_CHARS = 16_000;
/** Characters of a session name (`--session`) or a save name (`/save NAME`): the store's name limit. */
export const MAX_PLAY_NAME_CHARS = MAX_NAME_LENGTH;
/** Characters of one line typed at the game's prompt; the turn engine's own input limit is lower. */
export const MAX_LINE_CHARS = 64 * 1024;
/** Bytes of a `--world` file (a world ledger as `turn --json` prints it). */
export const MAX_WORLD_FILE_BYTES = 4 * 1024 * 1024;

// Every bound a cartridge must respect, in one place. Cartridges come from third parties, so each file is
// capped before it is decoded or parsed, and the YAML structure is capped before anything walks it
// recursively. Each limit has a test at the limit and just past it (test/core/cartridge/limits.test.ts).
// The numbers are documented for authors in docs/cartridges.md; keep both in step.

const KIB = 1024;
const MIB = 1024 * KIB;

/** Bytes of `yare.yaml`. The largest known cartridge has about 5 KiB of rules; the YAML parser reads about
 * 1 MiB per second, so this also bounds the time a hostile file can take. */
export const MAX_YARE_BYTES = 256 * KIB;
/** Bytes of `bot_lore.md`. Lore is chunked and retrieved, so it may be larger than anything else. */
export const MAX_LORE_BYTES = 2 * MIB;
/** Bytes of `prompt_directives.yaml` (its text is capped again per directive, below). */
export const MAX_DIRECTIVES_FILE_BYTES = 64 * KIB;
/** Bytes of `first-message.md`: it is shown to the player as the opening message. */
export const MAX_FIRST_MESSAGE_BYTES = 16 * KIB;
/** Bytes of `alternate_greetings.json` (other opening messages a new game may start with). */
export const MAX_ALTERNATE_GREETINGS_BYTES = 256 * KIB;
/** Greetings in `alternate_greetings.json`; each is capped like `first-message.md`. */
export const MAX_ALTERNATE_GREETINGS = 100;

/** Bytes of `intents.yaml` (implied inputs of intent phrases). */
export const MAX_INTENTS_FILE_BYTES = 64 * KIB;
/** Phrases in `intents.yaml`, all events together. */
export const MAX_INTENT_PHRASES = 1_000;
/** Characters of one phrase in `intents.yaml`: a phrase is a few words a player says. */
export const MAX_INTENT_PHRASE_CHARS = 200;

/** Characters (Unicode code points) of one directive, after persona macros. The original's 1 MiB cap let
 * prompts grow without bound; real directives are under 1,100 characters. */
export const MAX_DIRECTIVE_CHARS = 4_000;
/** Characters of all directives together, after persona macros. Below three times the per-directive cap, so
 * it binds: three directives at their cap are refused together. */
export const MAX_TOTAL_DIRECTIVE_CHARS = 10_000;

/** Nesting depth of YAML collections (`a: {b: [1]}` has depth 3). The deepest real rules nest about 12. */
export const MAX_YAML_DEPTH = 64;
/** Alias nodes (`*name`) in one YAML file. */
export const MAX_YAML_ALIASES = 100;
/** Nodes (collections, keys and scalars) in one YAML file, counted with every alias expanded. This is what
 * stops a "billion laughs" document, which needs few aliases to expand exponentially. The largest real
 * cartridge has under 1,000. */
export const MAX_YAML_NODES = 20_000;

/** Characters of a persona's name (it replaces `{{user}}`). */
export const MAX_PERSONA_NAME_CHARS = 100;
/** Characters of each pronoun (`{{sub}}`, `{{obj}}`, `{{poss}}`, `{{poss_obj}}`). */
export const MAX_PRONOUN_CHARS = 32;
/** Characters of each of a persona's free-text fields (appearance, background, personality). */
export const MAX_PERSONA_TEXT_CHARS = 4_000;
/** Characters of a persona's voice (the speech provider's voice name its lines are read in, docs/voices.md). */
export const MAX_PERSONA_VOICE_CHARS = 80;

/** YAML problems reported per file. A broken file can produce thousands of follow-on errors; the first
 * few point at the cause, and a last line says how many more were left out. */
export const MAX_YAML_ERRORS_REPORTED = 20;

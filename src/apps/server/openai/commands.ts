// The offline command prefix through a chat front end: SillyTavern runs every message that starts with `/`
// as its own slash command ("Unknown command"), so there the game's commands are typed `!help`,
// `!check_pack`, and the engine's hints say so (docs/sillytavern.md).

/** The offline command prefix typed through a front end. */
export const COMMAND_PREFIX = '!';
const BANG_COMMAND = /^!([A-Za-z_][A-Za-z0-9_]*)(?=\s|$)/;

/** `!help` → `/help`, `!check_pack x` → `/check_pack x`; any other text unchanged. */
export function engineCommand(text: string): string {
  const trimmed = text.trim();
  return BANG_COMMAND.test(trimmed) ? `/${trimmed.slice(1)}` : text;
}

const SLASH_HINT = /(^|[\s(“"'])\/([A-Za-z_][A-Za-z0-9_]*)/g;

/** The engine's hints ("type /help") with the prefix a front end lets through ("type !help"). */
export function frontEndHints(text: string): string {
  return text.replace(
    SLASH_HINT,
    (_all, before: string, name: string) => `${before}${COMMAND_PREFIX}${name}`,
  );
}

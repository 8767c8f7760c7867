// Story lines the engine records on the player's side that the player did not type: a mini-game's result
// (`[minigame:lights_out status=completed moves_made=8]`, src/engine/turn/interaction.ts). The story shows them
// as a game event in words, not as the player's message.

const MINIGAME =
  /^\[minigame:([A-Za-z0-9_-]{1,64}) status=([a-z_]{1,32})((?: [A-Za-z0-9_]{1,64}=[^\s\]]{0,200}){0,32})\]$/;

/** The words for a recorded mini-game result, or undefined when the line is the player's own. */
export function gameEventText(input: string): string | undefined {
  const m = MINIGAME.exec(input);
  if (m === null) return undefined;
  const game = m[1]!.replaceAll('_', ' ');
  const metrics = m[3]!
    .trim()
    .split(' ')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const at = pair.indexOf('=');
      return `${pair.slice(0, at).replaceAll('_', ' ')}: ${pair.slice(at + 1)}`;
    });
  return `Mini-game “${game}”: ${m[2]!.replaceAll('_', ' ')}${metrics.length > 0 ? ` (${metrics.join(', ')})` : ''}.`;
}

// The story shows a recorded mini-game result as a game event in words, and the player's own lines as
// their messages.
import { describe, expect, it } from 'vitest';
import { interactionText } from '../../../src/engine/turn/interaction.ts';
import { gameEventText } from '../../../src/apps/web/play/story-events.ts';

describe('game events in the story', () => {
  it('tells a mini-game result in words, from the line the engine records', () => {
    const line = interactionText({
      minigame_id: 'lights_out',
      status: 'completed',
      metrics: { moves_made: 8, lamps_left: 0 },
    });
    expect(line).toBe('[minigame:lights_out status=completed moves_made=8 lamps_left=0]');
    expect(gameEventText(line)).toBe('Mini-game “lights out”: completed (moves made: 8, lamps left: 0).');
    expect(gameEventText('[minigame:reflex_dial status=failed]')).toBe('Mini-game “reflex dial”: failed.');
  });

  it("leaves the player's own words alone, even when they look alike", () => {
    expect(gameEventText('I play the lights out game')).toBeUndefined();
    expect(gameEventText('[minigame:lights_out status=completed] and more')).toBeUndefined();
    expect(gameEventText(`[minigame:${'x'.repeat(65)} status=completed]`)).toBeUndefined();
    // Hostile input is answered at once (no backtracking blow-up).
    expect(gameEventText(`[minigame:a status=b${' k='.repeat(10_000)}`)).toBeUndefined();
  });
});

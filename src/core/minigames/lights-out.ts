// The manifest of `lights_out`. Its logic and web form live in src/apps/web/lib/lights-out.ts (the first
// mini-game, written with the web client); test/minigames/games.test.ts keeps these bounds equal to
// the constants there.

import type { MinigameManifest } from './manifest.ts';

export const LIGHTS_OUT: MinigameManifest = {
  minigame_id: 'lights_out',
  title: 'Lights out',
  description:
    'A square of lamps; pressing one flips it and its four neighbours. Put every lamp out within max_moves.',
  difficulty: {
    grid_size: { kind: 'int', min: 3, max: 7, default: 4, description: 'Lamps per side.' },
    max_moves: { kind: 'int', min: 1, max: 500, default: 20, description: 'Presses allowed.' },
    scramble_depth: {
      kind: 'int',
      min: 1,
      max: 500,
      default: 10,
      description: 'Random presses that scramble the dark board (so it is always solvable).',
    },
  },
  assets: {
    icon_on: { kind: 'text', maxChars: 200, default: '💡', description: 'A lit lamp.' },
    icon_off: { kind: 'text', maxChars: 200, default: '⬛', description: 'A dark lamp.' },
  },
  hooks: {
    on_success: 'Shown when every lamp is out.',
    on_failure: 'Shown when the moves run out.',
    on_near_miss: 'Shown when the moves run out with one or two lamps lit.',
    on_combo: "Declared by the original's manifest; neither its client nor this one fires it.",
  },
  metrics: [
    { name: 'moves_made', kind: 'int', description: 'Presses made.' },
    { name: 'moves_left', kind: 'int', description: 'Presses left.' },
    { name: 'grid_remaining', kind: 'int', description: 'Lamps still lit.' },
    { name: 'perfect_run', kind: 'bool', description: 'Solved in the fewest possible presses.' },
  ],
  accessibility:
    'Keyboard: Tab reaches the grid, arrow keys move between lamps, Enter or Space presses one. Each lamp is a button named by its row, column and state; the status line says how many are lit and how many moves are left.',
};

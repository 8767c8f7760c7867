// The shape of `prompt_directives.yaml` (src/core/cartridge/directives.ts is the checker it must agree with).

import { type FileShape, obj, str } from './shape.ts';

export const DIRECTIVES_FILE: FileShape = {
  title: 'MnesOS prompt_directives.yaml',
  root: obj(
    {
      director: str('Short steering for the Director (which events to prefer, the game’s pace).'),
      npc: str('Short steering for the NPC brain (how people and creatures behave).'),
      narrator: str('Short steering for the Narrator (voice, tense, length).'),
      picture_style: str(
        'The style line of a scene’s picture when pictures are on (docs/voices.md); never sent to a model.',
      ),
      npc_brain: str('The old name of npc; read as npc, with a warning.'),
    },
    { doc: 'Steering text for the models, in plain words. Persona macros ({{user}}…) are allowed.' },
  ),
  definitions: {},
};

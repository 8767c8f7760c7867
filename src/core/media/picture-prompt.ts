// The prompt an image provider gets for a turn's scene (docs/voices.md, "Pictures"): built by the engine, not
// the model, from what the player may see — the scene's narration, the public state (the caller passes
// `publicState(...)` of src/core/yare/schema.ts, so private fields never reach it), the lore entries that
// matched — and the cartridge's own style line (`picture_style` in prompt_directives.yaml). Every part is
// cut to its share, so the prompt never passes MAX_PICTURE_PROMPT_CHARS.

export const MAX_PICTURE_PROMPT_CHARS = 1_500;

const SHARES = Object.freeze({ style: 300, scene: 700, state: 250, lore: 250 });

export interface PictureScene {
  /** The turn's narration (the scene as the player read it). */
  readonly narration: string;
  /** The public state only (never the full state: private fields must not reach a provider). */
  readonly publicState: Readonly<Record<string, unknown>>;
  /** Lore entry texts that matched the scene. */
  readonly lore?: readonly string[];
  /** The cartridge's `picture_style` directive. */
  readonly style?: string;
}

function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** `a.b: value` lines of the scalar leaves of public state, in order, as far as `max` characters go. */
function stateLines(state: Readonly<Record<string, unknown>>, max: number): string {
  const out: string[] = [];
  let used = 0;
  const walk = (value: unknown, path: string, depth: number): boolean => {
    if (depth > 6) return true;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value))
        if (!walk(inner, path === '' ? key : `${path}.${key}`, depth + 1)) return false;
      return true;
    }
    if (!['string', 'number', 'boolean'].includes(typeof value)) return true;
    const line = `${path}: ${String(value)}`;
    if (used + line.length + 2 > max) return false;
    out.push(line);
    used += line.length + 2;
    return true;
  };
  walk(state, '', 0);
  return out.join('; ');
}

export function picturePrompt(scene: PictureScene): string {
  const parts: string[] = [];
  if (scene.style !== undefined && scene.style.trim() !== '')
    parts.push(`Style: ${cut(scene.style, SHARES.style)}`);
  parts.push(`Scene: ${cut(scene.narration, SHARES.scene)}`);
  const state = stateLines(scene.publicState, SHARES.state);
  if (state !== '') parts.push(`Details: ${state}`);
  const lore = (scene.lore ?? []).join(' ');
  if (lore.trim() !== '') parts.push(`World: ${cut(lore, SHARES.lore)}`);
  parts.push('No text or lettering in the image.');
  return parts.join('\n').slice(0, MAX_PICTURE_PROMPT_CHARS);
}

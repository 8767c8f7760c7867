// The terminal game: one session of the session service, driven by the commands the player types. Every
// turn (typed text, /retry, /resolve, /event) goes through the session service, so it is committed whole
// in the store or not at all; /undo, /save and /load move the session head or bookmark turns.

import type pc from 'picocolors';
import type { Cartridge } from '../../../core/cartridge/index.ts';
import {
  classifyRecord,
  driveTurn,
  isSessionError,
  noTurnAnswer,
  type PreparedTurn,
  type SessionService,
} from '../../../engine/session/index.ts';
import type { Session, Store, Turn } from '../../../adapters/store/index.ts';
import {
  ADVANCE_GAME_TIME,
  describeOutcome,
  directorTools,
  freeActionHelp,
  hasPendingInteraction,
  offlineCommandSyntax,
  PENDING_KEY,
  publicOutcome,
  type TurnEvent,
  type TurnPhase,
  type TurnRecord,
} from '../../../engine/turn/index.ts';
import {
  diffStates,
  isPublicEvent,
  publicEvents,
  publicState,
  toStateValue,
} from '../../../core/yare/index.ts';
import { toJsonText } from '../json-output.ts';
import type { PlayCommand } from './commands.ts';
import { type ModelChoice, OFFLINE_HELP } from './models.ts';
import type { OpenedSession } from './open-session.ts';
import { fidelityNotice, formatChanges, formatDebug, formatNotes } from './render.ts';
import { EmphasisStyler, renderEmphasis } from './emphasis.ts';
import { WordWrapper, wrapLines, wrapText } from './wrap.ts';
import { type PersonaAction, PlayPersonas } from './personas.ts';
import type { Spinner } from './spinner.ts';
import { type TerminalMinigameOptions, TerminalMinigames } from './minigame-text.ts';
import { eventInputs, interactionFromArgs } from './values.ts';

export type Colors = ReturnType<typeof pc.createColors>;

export interface PlayOutput {
  write(text: string): void;
}

export interface PlayGameOptions {
  readonly service: SessionService;
  readonly store: Store;
  readonly principalId: string;
  readonly sessionId: string;
  readonly choice: ModelChoice;
  readonly out: PlayOutput;
  readonly spinner: Spinner;
  readonly colors: Colors;
  /** The clock and dice of the text mini-games (tests); the real ones by default. */
  readonly minigames?: TerminalMinigameOptions;
  /** Column prose wraps at (`wrapWidth`); 0 or absent: no wrapping. */
  readonly width?: number;
  /** Strict mode (`play --strict`): a turn that breaks an invariant of the cartridge is refused, not kept. */
  readonly strict?: boolean;
}

export type CommandOutcome = 'continue' | 'quit';

interface Head {
  readonly session: Session;
  readonly turn: Turn;
  readonly cartridge: Cartridge;
}

const PHASE_LABELS: Readonly<Record<TurnPhase, string>> = {
  cycle_tick: 'The world turns…',
  interaction: 'Resolving the mini-game…',
  director: 'The Director is working…',
  time: 'Time passes…',
  narrator: 'The Narrator is writing…',
  ledger: 'The world ledger is updated…',
};

function pendingMinigame(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null || !hasPendingInteraction(state as Record<string, unknown>))
    return undefined;
  const pending = (state as Record<string, unknown>)[PENDING_KEY] as Record<string, unknown>;
  return typeof pending.minigame_id === 'string' ? pending.minigame_id : '(unnamed)';
}

export class PlayGame {
  readonly #o: PlayGameOptions;
  readonly #minigames: TerminalMinigames;
  /** The dice and changes under each turn (`/rules off` hides them). */
  #showRules = true;

  constructor(options: PlayGameOptions) {
    this.#o = options;
    this.#minigames = new TerminalMinigames(options.minigames);
  }

  #say(text: string): void {
    this.#o.out.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  #info(text: string): void {
    this.#say(this.#o.colors.dim(text));
  }

  /** Lines (a banner, /help, a reply), each wrapped at the terminal's width. */
  #lines(text: string): string {
    return wrapLines(text, this.#o.width ?? 0);
  }

  /** Story text, wrapped at the terminal's width. */
  #prose(text: string): void {
    this.#say(renderEmphasis(wrapText(text, this.#o.width ?? 0), this.#o.colors));
  }

  /** The rules' outcome of a turn, under its prose: dice and what changed, public fields only. */
  #outcome(rules: Cartridge['rules'], record: Pick<TurnRecord, 'rolls' | 'delta' | 'time'>): void {
    if (!this.#showRules) return;
    const lines = describeOutcome(publicOutcome(rules, record));
    if (lines.length > 0) this.#info(lines.map((line) => `  ${line}`).join('\n'));
  }

  async #head(): Promise<Head> {
    const { service, principalId, sessionId } = this.#o;
    const session = await service.getSession(principalId, sessionId);
    const turn = await service.getTurn(principalId, sessionId, session.headTurnId);
    const { cartridge } = await service.cartridgeOf(session);
    return { session, turn, cartridge };
  }

  /** The banner, the model notice, and the story so far (the first message, or where the player left off). */
  async intro(opened: OpenedSession): Promise<void> {
    const { session, turn, cartridge } = await this.#head();
    const c = this.#o.colors;
    const name =
      session.title !== null
        ? `session '${session.title}'`
        : opened.resumed
          ? `session ${session.id}`
          : `new session ${session.id}`;
    const badge = this.#o.choice.kind === 'offline' ? c.yellow(' [offline]') : '';
    const persona = await this.#o.service.persona(session.principalId, session.personaId);
    const playing = persona === undefined ? '' : `, playing ${persona.name}`;
    this.#say(
      c.bold(`MnesOS — ${cartridge.name}`) +
        badge +
        c.dim(` (${name}${opened.resumed ? ', resumed' : ''}${playing})`),
    );
    switch (this.#o.choice.kind) {
      case 'offline':
        this.#say(c.yellow(this.#lines(`OFFLINE MODE. ${OFFLINE_HELP}`)));
        break;
      case 'online':
        this.#info(`Model: ${this.#o.choice.description}`);
        break;
      case 'scripted':
        this.#info(`Model: ${this.#o.choice.description}`);
        break;
      default: {
        const never: never = this.#o.choice;
        throw new Error(`unknown model choice ${String(never)}`);
      }
    }
    if (opened.note !== undefined) this.#say(c.yellow(opened.note));
    this.#info('Type what you do. /help lists the commands; /quit leaves (the game is saved as you play).');
    this.#say('');
    if (turn.narration !== '') this.#prose(turn.narration);
    this.#pendingNotice(turn.state);
  }

  #pendingNotice(state: unknown): void {
    // A mini-game with a terminal form is played here as text (minigame-text.ts).
    const intro = this.#minigames.start(state);
    if (intro !== undefined) {
      this.#say(this.#o.colors.yellow(intro));
      return;
    }
    const minigame = pendingMinigame(state);
    if (minigame === undefined) return;
    this.#say(
      this.#o.colors.yellow(
        `A mini-game is waiting: ${minigame}. There is no puzzle screen in the terminal: send its outcome with /resolve status=completed (or failed, aborted) [key=value…].`,
      ),
    );
  }

  async handle(command: PlayCommand, signal: AbortSignal): Promise<CommandOutcome> {
    try {
      return await this.#dispatch(command, signal);
    } catch (error) {
      if (!isSessionError(error)) throw error;
      // Offline, the engine answered instead of playing (a question, what can be done here): no turn spent.
      const answered = noTurnAnswer(error);
      if (answered !== undefined) this.#say(renderEmphasis(this.#lines(answered.text), this.#o.colors));
      else this.#failure(error.code, error.message);
      return 'continue';
    }
  }

  #failure(code: string, message: string): void {
    const c = this.#o.colors;
    switch (code) {
      case 'model':
        this.#say(c.red(`The model failed: ${message}`));
        this.#info(
          'Nothing was saved. Type your action again, or check the model settings (docs/models.md).',
        );
        return;
      case 'aborted':
      case 'timeout':
        this.#say(c.yellow(message));
        return;
      default:
        if (message.includes('mini-game is pending')) {
          // The turn layer's words are for API clients ("send its result as an interaction"); here the
          // player finishes it with /resolve.
          this.#say(
            c.yellow(
              this.#lines(
                'A mini-game is waiting. Finish it first: /resolve status=completed (or failed, aborted).',
              ),
            ),
          );
          return;
        }
        this.#say(c.red(this.#lines(message)));
    }
  }

  /** A turn request for the session, in strict mode when the game was started so. */
  #request<T>(turn: T): { turn: T; strict?: true } {
    return this.#o.strict === true ? { turn, strict: true } : { turn };
  }

  async #dispatch(command: PlayCommand, signal: AbortSignal): Promise<CommandOutcome> {
    const { service, principalId, sessionId } = this.#o;
    const answer =
      command.kind === 'say' || command.kind === 'empty'
        ? this.#minigames.input(command.kind === 'say' ? command.text : '')
        : undefined;
    if (answer !== undefined) {
      this.#say(answer.output);
      if (answer.result !== undefined) {
        const interaction = { interaction: answer.result };
        await this.#play(
          await service.prepareTurn(principalId, sessionId, this.#request(interaction)),
          signal,
        );
      }
      return 'continue';
    }
    switch (command.kind) {
      case 'empty':
        return 'continue';
      case 'quit':
        return 'quit';
      case 'invalid':
        this.#say(this.#o.colors.red(command.message));
        return 'continue';
      case 'help':
        this.#say(this.#lines(await this.#help()));
        return 'continue';
      case 'rules':
        if (command.show !== undefined) this.#showRules = command.show;
        this.#say(
          `The dice and changes under each turn are ${this.#showRules ? 'shown' : 'hidden'} (/rules on|off).`,
        );
        return 'continue';
      case 'persona':
        await this.#persona(command.action);
        return 'continue';
      case 'say':
        await this.#play(
          await service.prepareTurn(principalId, sessionId, this.#request({ input: command.text })),
          signal,
        );
        return 'continue';
      case 'retry':
        await this.#play(await service.prepareRegenerate(principalId, sessionId), signal);
        return 'continue';
      case 'resolve': {
        const head = await this.#head();
        const minigame = pendingMinigame(head.turn.state);
        if (minigame === undefined) {
          this.#say('No mini-game is waiting.');
          return 'continue';
        }
        const interaction = interactionFromArgs(minigame, command.args);
        if (!interaction.ok) {
          this.#say(this.#o.colors.red(`/resolve: ${interaction.message}`));
          return 'continue';
        }
        await this.#play(
          await service.prepareTurn(
            principalId,
            sessionId,
            this.#request({ interaction: interaction.value }),
          ),
          signal,
        );
        return 'continue';
      }
      case 'state': {
        const head = await this.#head();
        this.#say(toJsonText(publicState(head.turn.state, head.cartridge.rules.schema), 2));
        return 'continue';
      }
      case 'debug': {
        const head = await this.#head();
        this.#say(formatDebug(classifyRecord(head.turn.record)));
        return 'continue';
      }
      case 'undo': {
        const head = await this.#head();
        await service.undo(principalId, sessionId, head.session.headTurnId);
        const text =
          typeof head.turn.input === 'object' && head.turn.input !== null
            ? (head.turn.input as { text?: unknown }).text
            : undefined;
        this.#say(`Undone${typeof text === 'string' ? `: ${text}` : ''}.`);
        const now = await this.#head();
        this.#pendingNotice(now.turn.state);
        return 'continue';
      }
      case 'save':
        await this.#save(command.name);
        return 'continue';
      case 'load':
        await this.#load(command.name);
        return 'continue';
      case 'saves': {
        const saves = await this.#o.store.listSaves(sessionId);
        if (saves.length === 0) this.#say('No saves yet. /save NAME bookmarks this moment.');
        for (const save of saves) this.#say(`${save.name}`);
        return 'continue';
      }
      case 'event':
        await this.#event(command.name, command.args);
        return 'continue';
      default: {
        const never: never = command;
        throw new Error(`unknown command ${JSON.stringify(never)}`);
      }
    }
  }

  /** Streams one prepared turn: spinner while the rules and models work, narration as it arrives. */
  async #play(prepared: PreparedTurn, signal: AbortSignal): Promise<void> {
    if (prepared.kind === 'replayed') {
      this.#prose(prepared.turn.narration);
      return;
    }
    const { spinner, out } = this.#o;
    // Emphasis is styled after wrapping: the styles' escape codes take no columns.
    const emphasis = new EmphasisStyler(this.#o.colors);
    const wrapper = new WordWrapper(this.#o.width ?? 0, (text) => out.write(emphasis.push(text)));
    let wrote = '';
    const onEvent = async (event: TurnEvent): Promise<void> => {
      switch (event.type) {
        case 'phase':
          if (wrote === '') spinner.start(PHASE_LABELS[event.phase]);
          return;
        case 'narration_delta':
          spinner.stop();
          wrapper.push(event.text);
          wrote += event.text;
          return;
        case 'done': {
          wrapper.end();
          out.write(emphasis.end());
          if (wrote !== '' && !wrote.endsWith('\n')) out.write('\n');
          // The streamed prose contradicted the rules and was fixed (engine/turn/fidelity.ts): show what is kept.
          if (event.record.fidelity !== undefined && event.record.fidelity.outcome !== 'clean')
            out.write(`\n${fidelityNotice(event.record.fidelity)}\n${event.record.narration}\n`);
          this.#outcome((await this.#head()).cartridge.rules, event.record);
          // A blank line between a turn and whatever comes next.
          out.write('\n');
          return;
        }
        case 'tool_call':
        case 'tool_result':
        case 'error':
          // Tool traffic is author information (/debug); an error arrives as the thrown SessionError.
          return;
        default: {
          const never: never = event;
          throw new Error(`unknown turn event ${JSON.stringify(never)}`);
        }
      }
    };
    spinner.start(PHASE_LABELS.cycle_tick);
    try {
      const { turn } = await driveTurn(prepared, { signal, onEvent });
      this.#pendingNotice(turn.state);
    } catch (error) {
      spinner.stop();
      wrapper.end();
      out.write(emphasis.end());
      if (wrote !== '' && !wrote.endsWith('\n')) out.write('\n');
      if (isSessionError(error) && error.code === 'invalid' && error.details.kind === 'interaction') {
        this.#say(this.#o.colors.red(error.message));
        const head = await this.#head();
        this.#pendingNotice(head.turn.state);
        return;
      }
      throw error;
    } finally {
      spinner.stop();
    }
  }

  async #event(name: string, args: Parameters<typeof eventInputs>[1]): Promise<void> {
    const head = await this.#head();
    const event = head.cartridge.rules.events.get(name);
    if (event === undefined || !isPublicEvent(event)) {
      const known = publicEvents(head.cartridge.rules).map((e) => e.name);
      this.#say(this.#o.colors.red(`There is no public event '${name}'. Events: ${known.join(', ')}.`));
      return;
    }
    const inputs = eventInputs(event, args);
    if (!inputs.ok) {
      this.#say(this.#o.colors.red(`/event: ${inputs.message}`));
      return;
    }
    const { record } = await this.#o.service.runAuthorEvent(this.#o.principalId, this.#o.sessionId, {
      event: name,
      inputs: inputs.value,
      commit: true,
    });
    const schema = head.cartridge.rules.schema;
    this.#say(formatNotes(record.notes));
    // Only public changes: the player's terminal never shows private fields (/debug has the notes and rolls).
    const changes = diffStates(
      toStateValue(publicState(head.turn.state, schema)),
      toStateValue(publicState(record.stateAfter, schema)),
    );
    for (const line of formatChanges(changes)) this.#info(line);
    this.#pendingNotice(record.stateAfter);
  }

  async #persona(action: PersonaAction): Promise<void> {
    const { store, principalId, sessionId } = this.#o;
    const head = await this.#head();
    this.#say(await new PlayPersonas(store, principalId, sessionId).run(action, head.session));
  }

  async #save(name: string): Promise<void> {
    const { store, sessionId } = this.#o;
    const head = await this.#head();
    let result = await store.createSave({ sessionId, turnId: head.session.headTurnId, name });
    let replaced = false;
    if (!result.ok && result.reason === 'name-taken') {
      // The terminal's /save overwrites, as games do; the old bookmark's turn stays in the tree.
      const old = (await store.listSaves(sessionId)).find((s) => s.name === name);
      if (old !== undefined) await store.deleteSave(sessionId, old.id);
      result = await store.createSave({ sessionId, turnId: head.session.headTurnId, name });
      replaced = true;
    }
    if (!result.ok) {
      this.#say(this.#o.colors.red(`Could not save '${name}': ${result.reason}.`));
      return;
    }
    this.#say(`Saved '${name}'${replaced ? ' (replacing the earlier save of that name)' : ''}.`);
  }

  async #load(name: string): Promise<void> {
    const { store, service, principalId, sessionId } = this.#o;
    const saves = await store.listSaves(sessionId);
    const save = saves.find((s) => s.name === name);
    if (save === undefined) {
      const names = saves.map((s) => s.name);
      this.#say(
        this.#o.colors.red(
          `No save named '${name}'.${names.length === 0 ? ' There are no saves yet.' : ` Saves: ${names.join(', ')}.`}`,
        ),
      );
      return;
    }
    await service.moveHead(principalId, sessionId, save.turnId);
    const head = await this.#head();
    this.#say(`Loaded '${name}'.`);
    if (head.turn.narration !== '') this.#prose(head.turn.narration);
    this.#pendingNotice(head.turn.state);
  }

  async #help(): Promise<string> {
    const head = await this.#head();
    const lines = [
      'Type what your character does; the rules decide what happens.',
      '',
      'Game commands:',
      '  /state              the public game state',
      '  /debug              what the last turn did: notes, rolls, tool calls, prompts, tokens, timings',
      '  /event NAME k=v…    run one of the events below directly (recorded as a turn; /undo takes it back)',
      '  /undo               take back the last turn',
      '  /retry              play the last turn again with new dice (and a new answer from the model)',
      '  /save NAME          bookmark this moment (the same name again replaces it)',
      '  /load NAME          go back to a bookmark; playing on starts a new branch',
      '  /saves              list the bookmarks',
      '  /resolve status=completed|failed|aborted [k=v…]  finish a pending mini-game (k=v are metrics, data.k=v data)',
      '  /rules on|off       show or hide the dice and changes under each turn',
      '  /persona            your characters: /persona new NAME [she|he|they] [— description],',
      '                      /persona edit NAME field=value…, /persona use NAME, /persona delete NAME',
      '  /help               this list',
      '  /quit               leave (Ctrl-D too); every finished turn is already saved',
      '',
      'Events of this cartridge:',
    ];
    for (const event of publicEvents(head.cartridge.rules)) {
      const inputs = [...event.inputs.values()]
        .map((s) =>
          s.enum
            ? `${s.name}=${s.enum.map((v) => JSON.stringify(toStateValue(v))).join('|')}`
            : `${s.name}=…`,
        )
        .join(' ');
      lines.push(`  ${event.name}${inputs === '' ? '' : ` ${inputs}`} — ${event.description}`);
    }
    if (this.#o.choice.kind === 'offline') {
      // Examples from this cartridge's own events (an imported card has none: the free actions remain).
      const examples = publicEvents(head.cartridge.rules)
        .filter((e) => e.triggerOn === undefined)
        .slice(0, 2)
        .map(offlineCommandSyntax);
      const clock = directorTools(head.cartridge).byName.has(ADVANCE_GAME_TIME) ? ['/wait 15m'] : [];
      const turns = [...examples, ...clock];
      lines.push('');
      if (turns.length > 0) lines.push(`Offline, an event is also a turn: ${turns.join(', ')}.`);
      lines.push(
        'Every game also answers these without spending a turn:',
        ...freeActionHelp(false).map((line) => `  ${line}`),
        'Or describe what you do and your words are matched to the events.',
      );
    }
    return lines.join('\n');
  }
}

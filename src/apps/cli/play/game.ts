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
  type TurnInput,
} from '../../../engine/session/index.ts';
import type { Session, Store, Turn } from '../../../adapters/store/index.ts';
import {
  describeOutcome,
  hasPendingInteraction,
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
import { gameHelp } from './game-help.ts';
import type { CommandArgs, PlayCommand } from './commands.ts';
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

/** One streamed turn's prose on the terminal: the spinner until words come, words wrapped as they arrive,
 * emphasis styled after wrapping (the styles' escape codes take no columns). */
class ProseStream {
  readonly #emphasis: EmphasisStyler;
  readonly #wrapper: WordWrapper;
  #wrote = '';

  constructor(
    private readonly out: PlayOutput,
    private readonly spinner: Spinner,
    colors: Colors,
    width: number,
  ) {
    this.#emphasis = new EmphasisStyler(colors);
    this.#wrapper = new WordWrapper(width, (text) => out.write(this.#emphasis.push(text)));
  }

  /** A phase of the turn: shown on the spinner while no word has come yet. */
  phase(label: string): void {
    if (this.#wrote === '') this.spinner.start(label);
  }

  push(text: string): void {
    this.spinner.stop();
    this.#wrapper.push(text);
    this.#wrote += text;
  }

  /** Flushes the last words and ends the prose's line. */
  end(): void {
    this.#wrapper.end();
    this.out.write(this.#emphasis.end());
    if (this.#wrote !== '' && !this.#wrote.endsWith('\n')) this.out.write('\n');
  }
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
    // A text mini-game in progress takes the typed line (or an empty one) as its answer.
    const answer =
      command.kind === 'say' || command.kind === 'empty'
        ? this.#minigames.input(command.kind === 'say' ? command.text : '')
        : undefined;
    if (answer !== undefined) {
      this.#say(answer.output);
      if (answer.result !== undefined) await this.#turn({ interaction: answer.result }, signal);
      return 'continue';
    }
    if (command.kind === 'quit') return 'quit';
    await this.#command(command, signal);
    return 'continue';
  }

  /** Every command but /quit: what it shows or plays. */
  async #command(command: Exclude<PlayCommand, { kind: 'quit' }>, signal: AbortSignal): Promise<void> {
    const { service, principalId, sessionId } = this.#o;
    switch (command.kind) {
      case 'empty':
        return;
      case 'invalid':
        return this.#say(this.#o.colors.red(command.message));
      case 'help':
        return this.#say(
          this.#lines(gameHelp((await this.#head()).cartridge, this.#o.choice.kind === 'offline')),
        );
      case 'rules':
        return this.#rules(command.show);
      case 'persona':
        return this.#persona(command.action);
      case 'say':
        return this.#turn({ input: command.text }, signal);
      case 'retry':
        return this.#play(await service.prepareRegenerate(principalId, sessionId), signal);
      case 'resolve':
        return this.#resolve(command.args, signal);
      case 'state':
        return this.#state();
      case 'debug':
        return this.#say(formatDebug(classifyRecord((await this.#head()).turn.record)));
      case 'undo':
        return this.#undo();
      case 'save':
        return this.#save(command.name);
      case 'load':
        return this.#load(command.name);
      case 'saves':
        return this.#saves();
      case 'event':
        return this.#event(command.name, command.args);
      default: {
        const never: never = command;
        throw new Error(`unknown command ${JSON.stringify(never)}`);
      }
    }
  }

  /** Plays a new turn of the player's words or a mini-game's result. */
  async #turn(turn: TurnInput, signal: AbortSignal): Promise<void> {
    const { service, principalId, sessionId } = this.#o;
    await this.#play(await service.prepareTurn(principalId, sessionId, this.#request(turn)), signal);
  }

  #rules(show: boolean | undefined): void {
    if (show !== undefined) this.#showRules = show;
    this.#say(
      `The dice and changes under each turn are ${this.#showRules ? 'shown' : 'hidden'} (/rules on|off).`,
    );
  }

  /** /resolve: the pending mini-game's outcome from `key=value` words, played as a turn. */
  async #resolve(args: CommandArgs, signal: AbortSignal): Promise<void> {
    const head = await this.#head();
    const minigame = pendingMinigame(head.turn.state);
    if (minigame === undefined) {
      this.#say('No mini-game is waiting.');
      return;
    }
    const interaction = interactionFromArgs(minigame, args);
    if (!interaction.ok) {
      this.#say(this.#o.colors.red(`/resolve: ${interaction.message}`));
      return;
    }
    await this.#turn({ interaction: interaction.value }, signal);
  }

  async #state(): Promise<void> {
    const head = await this.#head();
    this.#say(toJsonText(publicState(head.turn.state, head.cartridge.rules.schema), 2));
  }

  /** /undo: the head moves back one turn; says which words were taken back. */
  async #undo(): Promise<void> {
    const head = await this.#head();
    await this.#o.service.undo(this.#o.principalId, this.#o.sessionId, head.session.headTurnId);
    const text =
      typeof head.turn.input === 'object' && head.turn.input !== null
        ? (head.turn.input as { text?: unknown }).text
        : undefined;
    this.#say(`Undone${typeof text === 'string' ? `: ${text}` : ''}.`);
    const now = await this.#head();
    this.#pendingNotice(now.turn.state);
  }

  async #saves(): Promise<void> {
    const saves = await this.#o.store.listSaves(this.#o.sessionId);
    if (saves.length === 0) this.#say('No saves yet. /save NAME bookmarks this moment.');
    for (const save of saves) this.#say(`${save.name}`);
  }

  /** Streams one prepared turn: spinner while the rules and models work, narration as it arrives. */
  async #play(prepared: PreparedTurn, signal: AbortSignal): Promise<void> {
    if (prepared.kind === 'replayed') {
      this.#prose(prepared.turn.narration);
      return;
    }
    const { spinner, out } = this.#o;
    const stream = new ProseStream(out, spinner, this.#o.colors, this.#o.width ?? 0);
    spinner.start(PHASE_LABELS.cycle_tick);
    try {
      const { turn } = await driveTurn(prepared, {
        signal,
        onEvent: (event) => this.#onTurnEvent(event, stream),
      });
      this.#pendingNotice(turn.state);
    } catch (error) {
      spinner.stop();
      stream.end();
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

  async #onTurnEvent(event: TurnEvent, stream: ProseStream): Promise<void> {
    switch (event.type) {
      case 'phase':
        return stream.phase(PHASE_LABELS[event.phase]);
      case 'narration_delta':
        return stream.push(event.text);
      case 'done':
        return this.#turnDone(event.record, stream);
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
  }

  /** The end of a streamed turn: the prose closed, a fidelity fix shown, the rules' outcome under it. */
  async #turnDone(
    record: Extract<TurnEvent, { type: 'done' }>['record'],
    stream: ProseStream,
  ): Promise<void> {
    const { out } = this.#o;
    stream.end();
    // The streamed prose contradicted the rules and was fixed (engine/turn/fidelity.ts): show what is kept.
    if (record.fidelity !== undefined && record.fidelity.outcome !== 'clean')
      out.write(`\n${fidelityNotice(record.fidelity)}\n${record.narration}\n`);
    this.#outcome((await this.#head()).cartridge.rules, record);
    // A blank line between a turn and whatever comes next.
    out.write('\n');
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
}

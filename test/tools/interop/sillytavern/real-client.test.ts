// The real client: an unmodified SillyTavern 1.12.6 (../shared/tools/sillytavern, started on loopback into a
// temporary folder) driven through its page in Chromium, as a player uses it, against the OpenAI-compatible
// endpoint. After each action the game's tree says what the chat shows: the turns on the branch the last
// reply was played on are the chat's player messages and replies, with no duplicate or orphan turns.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportPngCard } from '../../../../src/tools/interop/sillytavern/export.ts';
import type { ChatModel, ModelSet } from '../../../../src/adapters/llm/types.ts';
import { ModelError } from '../../../../src/adapters/llm/errors.ts';
import { inputText } from '../../../../src/engine/session/messages.ts';
import { CONTINUE_INPUT, nextSpeakerInput } from '../../../../src/apps/server/openai/conversation.ts';
import { comparable, withoutPrefix } from '../../../../src/apps/server/openai/transcript.ts';
import { readAnchors } from '../../../../src/apps/server/openai/anchor.ts';
import { engineCommand } from '../../../../src/apps/server/openai/commands.ts';
import { startTestServer, type TestServer } from '../../../apps/server/helpers.ts';
import { LANTERNMERE } from '../../../engine/turn/helpers.ts';
import { launchChromium, screenshot } from '../../../apps/web/helpers/browser.ts';
import { sharedAvailable, sharedPath } from '../../../helpers/shared.ts';
import { textResponse } from './helpers.ts';

const available = sharedAvailable('SillyTavern end-to-end suite', 'tools', 'sillytavern', 'start.sh');
/** The first start installs SillyTavern (npm ci): minutes, once per machine. */
const START_TIMEOUT_MS = 300_000;
const STEP_TIMEOUT_MS = 30_000;
/** SillyTavern's page loads its scripts one by one: on a busy machine that takes a while. */
const LOAD_TIMEOUT_MS = 180_000;

/** Player messages whose replies never finished in the chat (Stop, a failure): no turn holds them. */
const UNPLAYED = ['I buy a brine tonic.', 'I call out to the ferryman.'];

/**
 * How the fake narrator answers the next request; 'same' writes word for word the same reply every time
 * (as offline play often does), so only the anchors tell two replies apart.
 */
let mode: 'normal' | 'slow' | 'fail' | 'same' = 'normal';
let replies = 0;
const numbered = (n: number) => (mode === 'same' ? 'Reply' : `Reply ${n}:`);
const narrator: ChatModel = {
  id: 'st-narrator',
  async generate() {
    return textResponse(`${numbered(++replies)} the lanterns burn.`);
  },
  async *stream(req) {
    const n = ++replies;
    const text = `${numbered(n)} the lanterns burn on their iron posts and the fen breathes mist over the walkways.`;
    const words = text.split(' ');
    for (const [i, word] of words.entries()) {
      if (req.signal?.aborted) throw req.signal.reason;
      if (mode === 'fail' && i === 3) throw new ModelError('network', 'the provider went away mid-stream');
      if (mode === 'slow') await new Promise((resolve) => setTimeout(resolve, 250));
      yield { type: 'text-delta', text: i === 0 ? word : ` ${word}` };
    }
    yield { type: 'finish', response: textResponse(text) };
  },
};
const director: ChatModel = {
  id: 'st-director',
  async generate() {
    return textResponse('Describe the scene; no rules apply.');
  },
  async *stream() {
    yield { type: 'finish', response: textResponse('Describe the scene; no rules apply.') };
  },
};
const models = (): ModelSet => ({ director, narrator, npc: director });

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

function startSillyTavern(port: number, data: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(
      'bash',
      [sharedPath('tools', 'sillytavern', 'start.sh'), String(port), data],
      { timeout: START_TIMEOUT_MS },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`start.sh failed: ${stderr || error.message}`));
        else resolve(Number(stdout.trim().split('\n')[0]));
      },
    );
  });
}

/**
 * A pass-through between SillyTavern and the game that keeps each chat request's `messages`, so a test can
 * see what SillyTavern sent (that it cut the oldest messages to fit its context).
 */
function recordingProxy(
  target: string,
): Promise<{ url: string; sent: { role: string; content: string }[][]; close(): void }> {
  const sent: { role: string; content: string }[][] = [];
  const server: Server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.url?.endsWith('/chat/completions')) sent.push(JSON.parse(body.toString()).messages);
      const out = httpRequest(
        `${target}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', () => res.destroy());
      // SillyTavern going away (Stop) reaches the game as it would without the proxy.
      res.on('close', () => {
        if (!res.writableFinished) out.destroy();
      });
      out.end(body);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      resolve({ url: `http://127.0.0.1:${port}`, sent, close: () => server.close() });
    }),
  );
}

interface Shown {
  readonly user: boolean;
  readonly text: string;
}

describe.skipIf(!available)('SillyTavern 1.12.6 in Chromium against the endpoint', () => {
  let game: TestServer;
  let browser: Browser;
  let page: Page;
  let stPid = 0;
  let folder: string;

  beforeAll(
    async () => {
      folder = mkdtempSync(join(tmpdir(), 'mnesos-st-e2e-'));
      game = await startTestServer({ models });
      const texts = new Map(
        ['first-message.md', 'bot_lore.md', 'prompt_directives.yaml', 'yare.yaml'].map(
          (name) => [name, readFileSync(join(LANTERNMERE, name), 'utf8')] as [string, string],
        ),
      );
      writeFileSync(join(folder, 'Lanternmere.png'), exportPngCard(texts, 'Lanternmere', undefined));
      const port = await freePort();
      stPid = await startSillyTavern(port, join(folder, 'st-data'));
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'load' });
      await onboard();
      await connect();
      await openCard(join(folder, 'Lanternmere.png'));
    },
    START_TIMEOUT_MS + LOAD_TIMEOUT_MS + 60_000,
  );

  afterAll(async () => {
    if (page) await screenshot(page, 'sillytavern-e2e-last').catch(() => undefined);
    await browser?.close();
    if (stPid > 0) process.kill(stPid);
    await game?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  async function onboard(): Promise<void> {
    // First run: SillyTavern asks the player's name.
    const input = page.locator('.popup-input:visible').first();
    await input.waitFor({ timeout: LOAD_TIMEOUT_MS });
    await input.fill('Wren');
    await page.locator('.popup-button-ok:visible').first().click();
    await input.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT_MS });
  }

  async function connect(base = game.url): Promise<void> {
    await page.locator('#API-status-top').click();
    await page.selectOption('#main_api', 'openai');
    await page.selectOption('#chat_completion_source', 'custom');
    await page.fill('#custom_api_url_text', `${base}/openai/v1`);
    await page.locator('#api_button_openai').click();
    await page.locator('#model_custom_select option[value="Lanternmere"]').waitFor({
      state: 'attached',
      timeout: STEP_TIMEOUT_MS,
    });
    await page.selectOption('#model_custom_select', 'Lanternmere');
    await page.locator('#API-status-top').click();
  }

  async function openCard(file: string): Promise<void> {
    await page.locator('#rightNavDrawerIcon').click();
    await page.setInputFiles('#character_import_file', file);
    const card = page.locator('.character_select', { hasText: 'Lanternmere' }).first();
    await card.waitFor({ timeout: STEP_TIMEOUT_MS });
    await card.click();
    // "This character has an embedded World/Lorebook. Would you like to import it now?" — the game has it.
    await page.locator('.popup-button-cancel:visible').first().click({ timeout: STEP_TIMEOUT_MS });
    await page.locator('#chat .mes').first().waitFor({ timeout: STEP_TIMEOUT_MS });
    await screenshot(page, 'sillytavern-e2e-card');
  }

  async function shown(): Promise<Shown[]> {
    return page.$$eval('#chat .mes', (nodes) =>
      nodes.map((n) => ({
        user: n.getAttribute('is_user') === 'true',
        text: (n.querySelector('.mes_text') as HTMLElement | null)?.innerText ?? '',
      })),
    );
  }

  /**
   * Until SillyTavern is done: no generation running and the last reply written (not its "..."
   * placeholder, unless `placeholder` says a failed one may stay), stable across a short wait.
   */
  async function idle(placeholder = false): Promise<void> {
    const done = () =>
      page.waitForFunction(
        (allow) => {
          const stop = document.querySelector('#mes_stop') as HTMLElement | null;
          const running = stop !== null && getComputedStyle(stop).display !== 'none';
          const last = document.querySelector('#chat .mes.last_mes .mes_text') as HTMLElement | null;
          const text = (last?.innerText ?? '').trim();
          return !running && (allow || (text !== '' && text !== '...'));
        },
        placeholder,
        { timeout: STEP_TIMEOUT_MS },
      );
    await done();
    await page.waitForTimeout(400); // SillyTavern saves the chat after the stream ends
    await done();
  }

  async function send(text: string): Promise<void> {
    const before = (await shown()).length;
    await page.fill('#send_textarea', text);
    await page.locator('#send_but').click();
    await page.waitForFunction((n) => document.querySelectorAll('#chat .mes').length >= n + 2, before, {
      timeout: STEP_TIMEOUT_MS,
    });
    await idle();
  }

  async function option(id: string): Promise<void> {
    await page.locator('#options_button').click();
    await page.locator(`#${id}`).click();
  }

  async function sessionTurns() {
    const sessions = await game.store.listSessions('local-user');
    expect(sessions).toHaveLength(1);
    const session = sessions[0]!;
    const nodes = await game.store.listTree(session.id);
    const turns = await Promise.all(nodes.map((n) => game.store.getTurn(session.id, n.id)));
    return { session, turns: turns.map((t) => t!) };
  }

  /**
   * The chat's exchanges are the turns of one branch of the tree: each player message the chat shows is
   * the input of the next turn on it, each reply that turn's narration (continuations appended) — except
   * the `unplayed` messages, whose replies never finished (Stop, a failure): no turn holds them.
   */
  async function expectChatIsTheGame(unplayed: readonly string[] = []): Promise<void> {
    // Consecutive messages of one side are one message (a reply that never came), as the endpoint reads them.
    const chat: Shown[] = [];
    for (const m of (await shown()).slice(1)) {
      const last = chat.at(-1);
      if (last !== undefined && last.user === m.user)
        chat[chat.length - 1] = { ...last, text: `${last.text}\n${m.text}` };
      else chat.push(m);
    }
    const { turns } = await sessionTurns();
    const byParent = new Map<string | null, typeof turns>();
    for (const t of turns) byParent.set(t.parentId, [...(byParent.get(t.parentId) ?? []), t]);
    let node = turns.find((t) => t.parentId === null)!;
    for (let i = 0; i + 1 < chat.length; i += 2) {
      if (unplayed.includes(chat[i]!.text.trim())) continue;
      const said = comparable(chat[i]!.text);
      const reply = comparable(chat[i + 1]!.text.replace(/\[MnesOS[^\]]*\]/g, ''));
      const children = (byParent.get(node.id) ?? []).filter(
        (c) => comparable(inputText(c.input) ?? '') === said,
      );
      const child = children.find((c) => reply.startsWith(comparable(c.narration)));
      expect(child, `turn for “${chat[i]!.text}” showing “${chat[i + 1]!.text.slice(0, 60)}”`).toBeDefined();
      node = child!;
      // A continued reply: the continuation turns under it.
      let rest = reply.slice(comparable(node.narration).length).trim();
      while (rest !== '') {
        const next = (byParent.get(node.id) ?? []).find(
          (c) => inputText(c.input) === CONTINUE_INPUT && rest.startsWith(comparable(c.narration)),
        );
        expect(next, `continuation “${rest.slice(0, 40)}”`).toBeDefined();
        node = next!;
        rest = rest.slice(comparable(node.narration).length).trim();
      }
    }
    // No duplicates: siblings with one input are swipes with different narrations.
    for (const siblings of byParent.values()) {
      const seen = new Set(siblings.map((s) => `${inputText(s.input)}\u0000${s.narration}`));
      expect(seen.size).toBe(siblings.length);
    }
  }

  /** The chat as SillyTavern keeps it (its own `chat` array): each message's raw text, side and hidden flag. */
  async function stChat(): Promise<{ user: boolean; name: string; mes: string; hidden: boolean }[]> {
    return page.evaluate(() =>
      (
        window as unknown as { SillyTavern: { getContext(): { chat: Record<string, unknown>[] } } }
      ).SillyTavern.getContext().chat.map((m) => ({
        user: m.is_user === true,
        name: String(m.name ?? ''),
        mes: String(m.mes ?? ''),
        hidden: m.is_system === true,
      })),
    );
  }

  /**
   * The game follows the chat, exactly: the branch at the head of the chat's session holds, in order, the
   * turns the chat's visible replies name (continuations included) and nothing else, each reply's first turn
   * played with the player's message the chat shows before it. Answers the session.
   */
  async function expectGameFollowsChat(): Promise<string> {
    const replies: { user: string; turns: string[] }[] = [];
    let user: string | undefined;
    for (const m of (await stChat()).slice(1).filter((x) => !x.hidden)) {
      if (m.user) user = user === undefined ? m.mes : `${user}\n${m.mes}`;
      // Consecutive replies are one (as the endpoint reads them): the later one's turns follow the earlier's.
      else if (user === undefined && replies.length > 0)
        replies.at(-1)!.turns.push(...readAnchors(m.mes).turnIds);
      else {
        replies.push({ user: user ?? '', turns: [...readAnchors(m.mes).turnIds] });
        user = undefined;
      }
    }
    const located = new Map(
      (
        await game.store.locateTurns(
          'local-user',
          replies.flatMap((r) => r.turns),
        )
      ).map((t) => [t.id, t]),
    );
    const played = replies
      .map((r) => ({ user: r.user, turns: r.turns.filter((id) => located.has(id)) }))
      .filter((r) => r.turns.length > 0);
    const session = located.get(played.at(-1)!.turns.at(-1)!)!.sessionId;
    const head = (await game.store.getSession(session, 'local-user'))!.headTurnId;
    const branch = (await game.store.getLineage(session, head))!.slice(1);
    expect(branch.map((t) => t.originId ?? t.id)).toEqual(played.flatMap((r) => r.turns));
    let at = 0;
    for (const reply of played) {
      const said = comparable(engineCommand(withoutPrefix(reply.user)));
      expect(comparable(inputText(branch[at]!.input) ?? ''), `the turn of “${reply.user}”`).toBe(said);
      at += reply.turns.length;
    }
    return session;
  }

  /** Every session's head and turns: what "unchanged" is checked against. */
  async function sessionShapes(): Promise<Map<string, string>> {
    const sessions = await game.store.listSessions('local-user');
    return new Map(
      await Promise.all(
        sessions.map(
          async (s) => [s.id, `${s.headTurnId}/${(await game.store.listTree(s.id)).length}`] as const,
        ),
      ),
    );
  }

  /** Types a line SillyTavern runs itself (a slash command): nothing is sent to the game. */
  async function command(text: string): Promise<void> {
    await page.fill('#send_textarea', text);
    await page.locator('#send_but').click();
    await page.waitForTimeout(800);
  }

  /** Deletes one message through its edit panel (the trash can), confirming SillyTavern's question. */
  async function deleteMessage(mesid: number): Promise<void> {
    const message = page.locator(`#chat .mes[mesid="${mesid}"]`);
    await message.hover();
    await message.locator('.mes_edit').click();
    const before = (await stChat()).length;
    await message.locator('.mes_edit_delete').click();
    // SillyTavern asks first (its default, `confirm_message_delete`); on a busy machine the question may
    // come a while after the click, so wait for it rather than look once.
    await page.locator('.popup-button-ok:visible').first().click({ timeout: STEP_TIMEOUT_MS });
    await page.waitForFunction(
      (n) =>
        (window as unknown as { SillyTavern: { getContext(): { chat: unknown[] } } }).SillyTavern.getContext()
          .chat.length ===
        n - 1,
      before,
      { timeout: STEP_TIMEOUT_MS },
    );
    await page.waitForTimeout(400);
  }

  /** "Exclude message from prompts" on one message. */
  async function hideMessage(mesid: number): Promise<void> {
    const message = page.locator(`#chat .mes[mesid="${mesid}"]`);
    await message.hover();
    await message.locator('.extraMesButtonsHint').click();
    await message.locator('.mes_hide').click();
    await page.waitForFunction(
      (id) =>
        (
          window as unknown as { SillyTavern: { getContext(): { chat: { is_system?: boolean }[] } } }
        ).SillyTavern.getContext().chat[id]?.is_system === true,
      mesid,
      { timeout: STEP_TIMEOUT_MS },
    );
    await page.waitForTimeout(400);
  }

  /** Opens one of the character's chats by its file name, through "Manage chat files". */
  async function openChat(chatId: string): Promise<void> {
    await option('option_select_chat');
    const block = page.locator(`.select_chat_block[file_name="${chatId}.jsonl"]`);
    await block.waitFor({ timeout: STEP_TIMEOUT_MS });
    await block.click();
    await screenshot(page, 'sillytavern-e2e-open-chat');
    await page.waitForFunction(
      (id) =>
        (window as unknown as { SillyTavern: { getContext(): { chatId: string } } }).SillyTavern.getContext()
          .chatId === id,
      chatId,
      { timeout: STEP_TIMEOUT_MS },
    );
    await page.waitForTimeout(600);
  }

  async function currentChatId(): Promise<string> {
    return page.evaluate(
      () =>
        (window as unknown as { SillyTavern: { getContext(): { chatId: string } } }).SillyTavern.getContext()
          .chatId,
    );
  }

  it(
    'connects, plays ten turns, swipes both ways, regenerates, continues, and the tree is the chat',
    async () => {
      expect((await shown()).length).toBe(1); // the card's greeting
      for (let i = 1; i <= 10; i++) {
        await send(`I walk the plank-way, step ${i}.`);
        await expectChatIsTheGame();
      }
      const { turns } = await sessionTurns();
      expect(turns).toHaveLength(11);

      // Swipe right on the last reply: a new sibling with new text.
      const last = (await shown()).at(-1)!.text;
      await page.locator('#chat .mes.last_mes .swipe_right').click();
      await page.waitForFunction(
        (old) => (document.querySelector('#chat .mes.last_mes .mes_text') as HTMLElement).innerText !== old,
        last,
        { timeout: STEP_TIMEOUT_MS },
      );
      await idle();
      await expectChatIsTheGame();
      expect((await sessionTurns()).turns).toHaveLength(12);

      // Swipe left: back to the first reply, then the next message follows it.
      await page.locator('#chat .mes.last_mes .swipe_left').click();
      await page.waitForTimeout(500);
      expect((await shown()).at(-1)!.text).toBe(last);
      await send('I follow the first path.');
      await expectChatIsTheGame();

      await option('option_regenerate');
      await page.waitForTimeout(300);
      await idle();
      await expectChatIsTheGame();

      await option('option_continue');
      await page.waitForTimeout(300);
      await idle();
      await expectChatIsTheGame();
      const { turns: after } = await sessionTurns();
      expect(after.some((t) => inputText(t.input) === CONTINUE_INPUT)).toBe(true);
    },
    STEP_TIMEOUT_MS * 30,
  );

  it(
    'Stop mid-stream and a model failure store nothing; the next message says so and plays on',
    async () => {
      const count = (await sessionTurns()).turns.length;
      mode = 'slow';
      await page.fill('#send_textarea', 'I buy a brine tonic.');
      await page.locator('#send_but').click();
      await page.waitForFunction(
        () =>
          (
            (document.querySelector('#chat .mes.last_mes .mes_text') as HTMLElement)?.innerText ?? ''
          ).includes('Reply'),
        undefined,
        { timeout: STEP_TIMEOUT_MS },
      );
      await page.locator('#mes_stop').click();
      await idle();
      mode = 'normal';
      const started = Date.now();
      while (game.deps.service.turnsInFlight > 0 && Date.now() - started < STEP_TIMEOUT_MS)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await sessionTurns()).turns).toHaveLength(count);

      await send('I look at the lanterns.');
      expect((await shown()).at(-1)!.text).toContain('“I buy a brine tonic.” was not played');
      expect((await sessionTurns()).turns).toHaveLength(count + 1);
      await expectChatIsTheGame(UNPLAYED);

      mode = 'fail';
      await page.fill('#send_textarea', 'I call out to the ferryman.');
      await page.locator('#send_but').click();
      await page.waitForTimeout(500);
      await idle(true);
      mode = 'normal';
      expect((await sessionTurns()).turns).toHaveLength(count + 1);
      await send('I wait by the water.');
      expect((await sessionTurns()).turns).toHaveLength(count + 2);
      await expectChatIsTheGame(UNPLAYED);
    },
    STEP_TIMEOUT_MS * 10,
  );

  it(
    'Impersonate commits nothing; an edited earlier message keeps the game; streaming off plays too',
    async () => {
      const count = (await sessionTurns()).turns.length;
      await option('option_impersonate');
      await page.waitForFunction(
        () => (document.querySelector('#send_textarea') as HTMLTextAreaElement).value.trim() !== '',
        undefined,
        { timeout: STEP_TIMEOUT_MS },
      );
      await idle();
      expect((await sessionTurns()).turns).toHaveLength(count);
      await page.fill('#send_textarea', '');

      // Edit the player's first message (a typo fixed), then send: the later turns are rebased.
      const first = page.locator('#chat .mes[mesid="1"]');
      await first.hover();
      await first.locator('.mes_edit').click();
      await first.locator('.edit_textarea').fill('I walk the plank-way, first step.');
      await first.locator('.mes_edit_done').click();
      const calls = replies;
      await send('I keep walking.');
      // The later turns came from their records: one narration only, the new message's.
      expect(replies - calls).toBe(1);
      const { turns } = await sessionTurns();
      expect(turns.some((t) => inputText(t.input) === 'I walk the plank-way, first step.')).toBe(true);
      await expectChatIsTheGame(UNPLAYED);

      // Streaming off (AI Response Configuration).
      await page.locator('#ai-config-button .drawer-toggle').click();
      await page.locator('#stream_toggle').uncheck();
      await page.locator('#ai-config-button .drawer-toggle').click();
      await send('I stop by the inn.');
      const last = (await sessionTurns()).turns.find((t) => inputText(t.input) === 'I stop by the inn.');
      expect(last).toBeDefined();
      await expectChatIsTheGame(UNPLAYED);
    },
    STEP_TIMEOUT_MS * 10,
  );

  it(
    'names in the message content, a branch, and a new chat',
    async () => {
      // Character Names Behavior: Message Content — SillyTavern writes "Wren: …" into the messages.
      await page.locator('#ai-config-button .drawer-toggle').click();
      const names = page.locator('#openai_settings .inline-drawer', {
        has: page.locator('#character_names_display'),
      });
      await names.locator('.inline-drawer-toggle').first().click();
      await page.locator('label[for="character_names_content"]').click();
      await page.locator('#ai-config-button .drawer-toggle').click();
      await send('I count my coins.');
      const { turns } = await sessionTurns();
      expect(turns.some((t) => inputText(t.input) === 'I count my coins.')).toBe(true);
      await expectChatIsTheGame(UNPLAYED);

      // Create Branch on the player's second message's reply: a chat of its own up to there; the next
      // message branches the game there.
      const reply = page.locator('#chat .mes[mesid="4"]');
      await reply.hover();
      await reply.locator('.extraMesButtonsHint').click();
      await reply.locator('.mes_create_branch').click();
      await page.waitForFunction(() => document.querySelectorAll('#chat .mes').length === 5, undefined, {
        timeout: STEP_TIMEOUT_MS,
      });
      const count = (await sessionTurns()).turns.length;
      await send('I take the other path.');
      expect((await sessionTurns()).turns).toHaveLength(count + 1);
      await expectChatIsTheGame(UNPLAYED);

      // A new chat with the card: a new game (the old one stays listed as its own model).
      await option('option_start_new_chat');
      await page.locator('.popup-button-ok:visible').first().click({ timeout: STEP_TIMEOUT_MS });
      await page.waitForFunction(() => document.querySelectorAll('#chat .mes').length === 1, undefined, {
        timeout: STEP_TIMEOUT_MS,
      });
      await send('I start over at the pier.');
      expect(await game.store.listSessions('local-user')).toHaveLength(2);
    },
    STEP_TIMEOUT_MS * 10,
  );

  it(
    'another client on the same key, with the same repeated lines, never takes the chat over',
    async () => {
      await send('I check my pack.');
      await send('I check my pack.');
      const mine = await expectGameFollowsChat();
      const before = (await sessionShapes()).get(mine);
      // The openai SDK's own conversation, on the same key, with the same lines.
      const sdk: { role: string; content: string }[] = [];
      for (const line of ['I check my pack.', 'I check my pack.']) {
        sdk.push({ role: 'user', content: line });
        const answer = await game.json('/openai/v1/chat/completions', {
          method: 'POST',
          json: { model: 'Lanternmere', messages: sdk },
        });
        expect(answer.status).toBe(200);
        expect(answer.headers.get('x-mnesos-session')).not.toBe(mine);
        sdk.push({ role: 'assistant', content: answer.body.choices[0].message.content });
      }
      expect((await sessionShapes()).get(mine)).toBe(before);
      const shapes = await sessionShapes();
      await send('I check my pack.');
      expect(await expectGameFollowsChat()).toBe(mine);
      for (const [id, shape] of shapes) if (id !== mine) expect((await sessionShapes()).get(id)).toBe(shape);
    },
    STEP_TIMEOUT_MS * 10,
  );

  it(
    'an exchange deleted in the middle, and one hidden: the game forgets what the chat no longer shows',
    async () => {
      await send('I head to the market.');
      await send('I count my coins.');
      const count = (await stChat()).length;
      // The trash can on one message pair in the middle: the player message, then its reply.
      const middle = count - 6;
      await deleteMessage(middle);
      await deleteMessage(middle);
      expect((await stChat()).length).toBe(count - 2);
      const calls = replies;
      await send('I head to the market.');
      expect(replies - calls).toBe(1); // the carried turns came from their records
      await expectGameFollowsChat();
      // "Exclude message from prompts" on another pair.
      const now = (await stChat()).length;
      await hideMessage(now - 4);
      await hideMessage(now - 3);
      await send('I count my coins.');
      await expectGameFollowsChat();
    },
    STEP_TIMEOUT_MS * 10,
  );

  it(
    'a context cut over repeated lines is placed by the replies it still shows',
    async () => {
      const proxy = await recordingProxy(game.url);
      try {
        await connect(proxy.url);
        await page.locator('#ai-config-button .drawer-toggle').click();
        await page.fill('#openai_max_context_counter', '1024');
        await page.locator('#openai_max_context_counter').dispatchEvent('input');
        await page.locator('#ai-config-button .drawer-toggle').click();
        const lines = ['I check my pack.', 'I head to the market.'];
        mode = 'same';
        let cut = false;
        for (let i = 0; i < 24 && !cut; i++) {
          await send(lines[i % 3 === 2 ? 1 : 0]!);
          await expectGameFollowsChat();
          const last = proxy.sent.at(-1)!.filter((m) => m.role !== 'system');
          cut = !last[0]?.content.includes('Lanternmere');
        }
        expect(cut, 'SillyTavern cut the oldest messages').toBe(true);
        await send('I check my pack.');
        await expectGameFollowsChat();
      } finally {
        mode = 'normal';
        await page.locator('#ai-config-button .drawer-toggle').click();
        await page.fill('#openai_max_context_counter', '4095');
        await page.locator('#openai_max_context_counter').dispatchEvent('input');
        await page.locator('#ai-config-button .drawer-toggle').click();
        await connect();
        proxy.close();
      }
    },
    STEP_TIMEOUT_MS * 30,
  );

  it(
    'two chats of one character switched back and forth, their replies word for word the same, each keep their own game',
    async () => {
      mode = 'same';
      await option('option_start_new_chat');
      await page.locator('.popup-button-ok:visible').first().click({ timeout: STEP_TIMEOUT_MS });
      await page.waitForFunction(() => document.querySelectorAll('#chat .mes').length === 1);
      await send('I check my pack.');
      const chatA = await currentChatId();
      const gameA = await expectGameFollowsChat();
      await option('option_start_new_chat');
      await page.locator('.popup-button-ok:visible').first().click({ timeout: STEP_TIMEOUT_MS });
      await page.waitForFunction(() => document.querySelectorAll('#chat .mes').length === 1);
      await send('I check my pack.');
      const chatB = await currentChatId();
      const gameB = await expectGameFollowsChat();
      expect(gameB).not.toBe(gameA);
      const firstReplies = [gameA, gameB].map(async (id) => {
        const [turn] = (await game.store.listTree(id)).slice(1);
        return (await game.store.getTurn(id, turn!.id))!.narration;
      });
      const [replyA, replyB] = await Promise.all(firstReplies);
      expect(replyB).toBe(replyA);
      await openChat(chatA);
      const shapeB = (await sessionShapes()).get(gameB);
      await send('I head to the market.');
      expect(await expectGameFollowsChat()).toBe(gameA);
      expect((await sessionShapes()).get(gameB)).toBe(shapeB);
      await openChat(chatB);
      const shapeA = (await sessionShapes()).get(gameA);
      await send('I count my coins.');
      expect(await expectGameFollowsChat()).toBe(gameB);
      expect((await sessionShapes()).get(gameA)).toBe(shapeA);
      mode = 'normal';
    },
    STEP_TIMEOUT_MS * 10,
  );

  it(
    'a persona renamed mid-chat, names in the messages: no name reaches the game, nothing is rebased',
    async () => {
      const session = await expectGameFollowsChat();
      const before = (await game.store.listTree(session)).length;
      await command('/persona Ash');
      await send('I head to the market.');
      await send('I count my coins.');
      await expectGameFollowsChat();
      const turns = await Promise.all(
        (await game.store.listTree(session)).map((n) => game.store.getTurn(session, n.id)),
      );
      expect(turns).toHaveLength(before + 2);
      for (const t of turns) expect(inputText(t!.input) ?? '').not.toMatch(/^(Wren|Ash):/);
    },
    STEP_TIMEOUT_MS * 10,
  );

  it(
    'a reload mid-stream stores nothing, and the chat plays on from what it shows',
    async () => {
      await send('I look at the lanterns.');
      const session = await expectGameFollowsChat();
      const chatId = await currentChatId();
      const count = (await game.store.listTree(session)).length;
      await page.locator('#ai-config-button .drawer-toggle').click();
      await page.locator('#stream_toggle').check();
      await page.locator('#ai-config-button .drawer-toggle').click();
      mode = 'slow';
      await page.fill('#send_textarea', 'I walk to the pier.');
      await page.locator('#send_but').click();
      await page.waitForFunction(
        () =>
          (
            (document.querySelector('#chat .mes.last_mes .mes_text') as HTMLElement)?.textContent ?? ''
          ).includes('Reply'),
        undefined,
        { timeout: STEP_TIMEOUT_MS },
      );
      await page.reload({ waitUntil: 'load' });
      mode = 'normal';
      const started = Date.now();
      while (game.deps.service.turnsInFlight > 0 && Date.now() - started < STEP_TIMEOUT_MS)
        await new Promise((resolve) => setTimeout(resolve, 50));
      // As a player after a reload: connect again and open the character, which opens its chat.
      await page.locator('#chat .mes').first().waitFor({ timeout: LOAD_TIMEOUT_MS });
      await connect();
      await page.locator('#rightNavDrawerIcon').click();
      await page.locator('.character_select', { hasText: 'Lanternmere' }).first().click();
      await page.waitForFunction(
        (id) =>
          (
            window as unknown as { SillyTavern: { getContext(): { chatId: string } } }
          ).SillyTavern.getContext().chatId === id,
        chatId,
        { timeout: STEP_TIMEOUT_MS },
      );
      await page.waitForTimeout(1_000);
      await screenshot(page, 'sillytavern-e2e-reloaded');
      expect((await game.store.listTree(session)).length).toBe(count);
      await send('I walk to the pier again.');
      expect(await expectGameFollowsChat()).toBe(session);
      // Both lines were played (one turn): no note says otherwise.
      expect((await shown()).at(-1)!.text).not.toContain('[MnesOS');
    },
    LOAD_TIMEOUT_MS + STEP_TIMEOUT_MS * 10,
  );

  it(
    'a group chat where two members answer one message: each reply is a turn of its own, in order',
    async () => {
      // A second card (no lorebook: SillyTavern asks nothing on import), then a group of both, "List
      // order": every member answers each player message, the second told by SillyTavern's group nudge.
      const mira = join(folder, 'Mira.png');
      writeFileSync(
        mira,
        exportPngCard(new Map([['first-message.md', 'Mira waits by the ferry rope.']]), 'Mira', undefined),
      );
      await page.setInputFiles('#character_import_file', mira);
      await page
        .locator('.character_select', { hasText: 'Mira' })
        .first()
        .waitFor({ state: 'attached', timeout: STEP_TIMEOUT_MS });
      if (!(await page.locator('#rm_button_group_chats').isVisible()))
        await page.locator('#rightNavDrawerIcon').click();
      await page.locator('#rm_button_group_chats').click();
      await page.fill('#rm_group_chat_name', 'Ferry');
      for (const name of ['Lanternmere', 'Mira'])
        await page
          .locator('#rm_group_add_members .group_member', { hasText: name })
          .first()
          .locator('[data-action="add"]')
          .click();
      await page.selectOption('#rm_group_activation_strategy', '1');
      await page.locator('#rm_group_submit').click();
      // Open the group's chat: it starts with each member's greeting.
      await page.locator('.group_select', { hasText: 'Ferry' }).first().click({ timeout: STEP_TIMEOUT_MS });
      await page.locator('#chat .mes', { hasText: 'Mira waits by the ferry rope.' }).waitFor({
        timeout: STEP_TIMEOUT_MS,
      });
      await page.waitForTimeout(600);
      await screenshot(page, 'sillytavern-e2e-group');

      const before = (await shown()).length;
      const calls = replies;
      await page.fill('#send_textarea', 'I greet you both.');
      await page.locator('#send_but').click();
      await page.waitForFunction((n) => document.querySelectorAll('#chat .mes').length >= n + 3, before, {
        timeout: STEP_TIMEOUT_MS,
      });
      await idle();
      expect(replies - calls).toBe(2);
      const session = await expectGameFollowsChat();
      const answers = (await stChat()).slice(-2);
      expect(answers.every((m) => !m.user)).toBe(true);
      const [first, second] = answers.map((m) => readAnchors(m.mes).turnIds.at(-1)!);
      const turn = (await game.store.getTurn(session, second!))!;
      expect(turn.parentId).toBe(first);
      // SillyTavern's list order is its own (the group shows Mira first): the second speaker is named.
      expect(new Set(answers.map((m) => m.name))).toEqual(new Set(['Lanternmere', 'Mira']));
      expect(inputText(turn.input)).toBe(nextSpeakerInput(answers[1]!.name));

      // The next message follows the second member's reply.
      await page.fill('#send_textarea', 'I ask about the crossing.');
      await page.locator('#send_but').click();
      await page.waitForFunction((n) => document.querySelectorAll('#chat .mes').length >= n + 6, before, {
        timeout: STEP_TIMEOUT_MS,
      });
      await idle();
      expect(await expectGameFollowsChat()).toBe(session);
    },
    STEP_TIMEOUT_MS * 10,
  );
});

// The table bus: in one process (LocalBus) and across processes over real PostgreSQL LISTEN/NOTIFY (two
// PgNotifyBus instances on one database stand for two replicas). A message reaches the other replica and its
// own process once (its echo dropped); a payload of MAX_NOTIFY_BYTES crosses, one byte more is dropped and
// counted (it still reaches this process); one listener that throws stops no other.

import { afterAll, describe, expect, it } from 'vitest';
import { type BusMessage, LocalBus, MAX_NOTIFY_BYTES, PgNotifyBus } from '../../../src/adapters/bus/index.ts';
import { postgresAvailable, postgresHarness, testPgUrl } from '../../adapters/store/harness.ts';

const url = testPgUrl();
const available = await postgresAvailable('the PostgreSQL table bus', url);

/** A narration message whose wire form (`{"o":…,"m":…}` from `origin`) is exactly `bytes` long. */
function narrationOf(origin: string, bytes: number): BusMessage {
  const base = (text: string): BusMessage => ({
    kind: 'passing',
    sessionId: 's1',
    payload: { type: 'narration', turnId: 't', character: 'a', text, whisper: false },
  });
  const overhead = Buffer.byteLength(JSON.stringify({ o: origin, m: base('') }), 'utf8');
  return base('x'.repeat(bytes - overhead));
}

function collector() {
  const got: BusMessage[] = [];
  const next = (count: number, ms = 3_000) =>
    new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const look = () => {
        if (got.length >= count) return resolve();
        if (Date.now() - started > ms) return reject(new Error(`only ${got.length} of ${count} messages`));
        setTimeout(look, 20);
      };
      look();
    });
  return { got, next, listener: (m: BusMessage) => void got.push(m) };
}

describe('LocalBus', () => {
  it('delivers to the session’s listeners only; a throwing listener stops no other', async () => {
    const bus = new LocalBus();
    const a = collector();
    const other = collector();
    bus.subscribe('s1', () => {
      throw new Error('a broken listener');
    });
    bus.subscribe('s1', a.listener);
    bus.subscribe('s2', other.listener);
    bus.publish({ kind: 'event', sessionId: 's1', seq: 1 });
    await a.next(1);
    expect(other.got).toEqual([]);
  });
});

describe.skipIf(!available)('PgNotifyBus over PostgreSQL', () => {
  const harness = postgresHarness(url);
  const buses: PgNotifyBus[] = [];
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.close()));
    await harness.cleanup();
  });

  it('crosses to the other replica once, and reaches its own process once (no echo)', async () => {
    const dbUrl = await harness.freshUrl();
    const [one, two] = [await PgNotifyBus.open(dbUrl), await PgNotifyBus.open(dbUrl)];
    buses.push(one, two);
    const atOne = collector();
    const atTwo = collector();
    one.subscribe('s1', atOne.listener);
    two.subscribe('s1', atTwo.listener);
    one.publish({ kind: 'event', sessionId: 's1', seq: 7 });
    await atTwo.next(1);
    await atOne.next(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(atOne.got).toEqual([{ kind: 'event', sessionId: 's1', seq: 7 }]);
    expect(atTwo.got).toEqual([{ kind: 'event', sessionId: 's1', seq: 7 }]);
  });

  it('a payload of MAX_NOTIFY_BYTES crosses; one byte more is dropped and counted', async () => {
    const dbUrl = await harness.freshUrl();
    const [one, two] = [await PgNotifyBus.open(dbUrl), await PgNotifyBus.open(dbUrl)];
    buses.push(one, two);
    const atTwo = collector();
    two.subscribe('s1', atTwo.listener);
    const atLimit = narrationOf(one.origin, MAX_NOTIFY_BYTES);
    one.publish(atLimit);
    await atTwo.next(1);
    one.publish(narrationOf(one.origin, MAX_NOTIFY_BYTES + 1));
    one.publish({ kind: 'event', sessionId: 's1', seq: 9 });
    await atTwo.next(2);
    expect(atTwo.got.map((m) => m.kind)).toEqual(['passing', 'event']);
    expect(one.dropped).toBe(1);
  });
});

import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { dictionary } from '@zxcvbn-ts/language-common';
import { tooManyAttempts } from '../http/errors';

/** Who a hashing run is for: its address (a lane) and how much that address failed lately (its penalty). */
export interface HashTicket {
  /** The caller's address, or any key runs are shared out by; runs without a ticket share one lane. */
  lane: string;
  /** Recent wrong logins from that lane: a lower penalty is served first, and pushes a higher one out when the line is full. */
  penalty?: number;
}

interface Waiting {
  lane: string;
  penalty: number;
  seq: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * scrypt runs on libuv's thread pool (4 threads unless UV_THREADPOOL_SIZE
 * says otherwise), which file reads, DNS and zlib share; each run takes about
 * 128 MB and a core for a third of a second. So at most `concurrency` run at
 * once (leaving the pool two threads and the event loop a core); up to
 * `maxWaiting` more wait their turn, as long as the expected wait stays under
 * `maxWaitMs`; beyond that a call is refused with 10009 and an estimate of
 * the seconds until the queue has room.
 *
 * The line is shared fairly (issue 26): each lane (an address) has at most
 * `perLane` runs waiting, so a flood from one address cannot fill it; the
 * next run is the waiting one of lowest penalty (an address without recent
 * failures before one that keeps guessing), oldest first among equals; and
 * when the line is full a newcomer of lower penalty takes the place of the
 * newest waiting run of the highest penalty, which is refused with 10009. So
 * a flood from many addresses that keep guessing leaves a clean address's
 * login at most the runs already started and the few clean ones ahead.
 */
export const createHashQueue = (concurrency: number, maxWaiting: number, maxWaitMs = 8000, perLane = 1) => {
  let running = 0;
  const waiting: Waiting[] = [];
  const waitingPerLane = new Map<string, number>();
  let seq = 0;
  /** Moving average of one run, for the wait estimate. */
  let averageMs = 300;
  let completed = 0;
  let pushedOut = 0;
  /** No room: the line is at its length, or a newcomer would likely wait longer than a client does (10 s). */
  const full = () => waiting.length >= maxWaiting || (Math.floor(waiting.length / concurrency) + 1) * averageMs > maxWaitMs;
  const retryAfter = () => Math.max(1, Math.ceil(((waiting.length + 1) / concurrency + 1) * averageMs / 1000));
  /** Runs without a ticket (registration, resets, the demo seed) share the unnamed lane, which has no cap of its own. */
  const laneFull = (lane: string) => lane !== '' && (waitingPerLane.get(lane) ?? 0) >= perLane;
  const remove = (entry: Waiting) => {
    waiting.splice(waiting.indexOf(entry), 1);
    const left = (waitingPerLane.get(entry.lane) ?? 1) - 1;
    if (left > 0) waitingPerLane.set(entry.lane, left);
    else waitingPerLane.delete(entry.lane);
  };
  /** The waiting run a newcomer of `penalty` may push out: the newest of the highest penalty above it. */
  const victim = (penalty: number): Waiting | undefined => {
    let worst: Waiting | undefined;
    for (const entry of waiting) if (entry.penalty > penalty && (!worst || entry.penalty > worst.penalty || (entry.penalty === worst.penalty && entry.seq > worst.seq))) worst = entry;
    return worst;
  };
  const nextUp = (): Waiting | undefined => {
    let best: Waiting | undefined;
    for (const entry of waiting) if (!best || entry.penalty < best.penalty || (entry.penalty === best.penalty && entry.seq < best.seq)) best = entry;
    return best;
  };
  /** Refuses now, or says which waiting run a newcomer pushes out (undefined: there is room). */
  const admit = (lane: string, penalty: number): Waiting | undefined => {
    if (laneFull(lane)) tooManyAttempts(retryAfter());
    if (!full()) return undefined;
    return victim(penalty) ?? tooManyAttempts(retryAfter());
  };
  return {
    concurrency,
    maxWaiting,
    async run<T>(work: () => Promise<T>, ticket?: HashTicket): Promise<T> {
      const lane = ticket?.lane ?? '';
      const penalty = ticket?.penalty ?? 0;
      if (running < concurrency) running += 1;
      else {
        const out = admit(lane, penalty);
        if (out) {
          remove(out);
          pushedOut += 1;
          try {
            tooManyAttempts(retryAfter());
          } catch (error) {
            out.reject(error);
          }
        }
        // A finished run hands its place straight to the next in line.
        await new Promise<void>((resolve, reject) => {
          waiting.push({ lane, penalty, seq: seq++, resolve, reject });
          waitingPerLane.set(lane, (waitingPerLane.get(lane) ?? 0) + 1);
        });
      }
      const started = performance.now();
      try {
        return await work();
      } finally {
        averageMs = averageMs * 0.8 + (performance.now() - started) * 0.2;
        completed += 1;
        const next = nextUp();
        if (next) {
          remove(next);
          next.resolve();
        } else running -= 1;
      }
    },
    /** Refuses with 10009 now when a run would be refused (before spending something single use). */
    ensureRoom(ticket?: HashTicket): void {
      if (running >= concurrency) admit(ticket?.lane ?? '', ticket?.penalty ?? 0);
    },
    /** Runs now, runs waiting, runs finished since start, waiting runs pushed out by cleaner ones. */
    stats: () => ({ running, waiting: waiting.length, completed, pushedOut }),
  };
};

const threadPool = Number(process.env.UV_THREADPOOL_SIZE) || 4;
/** One run per core but one (the event loop keeps a core: 1 on 2 cores), and two pool threads kept free. */
export const hashQueue = createHashQueue(Math.max(1, Math.min(availableParallelism() - 1, threadPool - 2)), 16);

/**
 * scrypt (OWASP: N=2^17, r=8, p=1) with a 16-byte salt; the parameters are
 * stored with the hash so the cost can be raised without breaking old hashes.
 * Format: scrypt$N$r$p$salt(base64)$hash(base64).
 */
const KEY_LENGTH = 32;

const derive = (password: string, salt: Buffer, N: number, r: number, p: number, ticket?: HashTicket): Promise<Buffer> =>
  hashQueue.run(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
    ticket,
  );

export const hashPassword = async (password: string, N: number, ticket?: HashTicket): Promise<string> => {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, 8, 1, ticket);
  return ['scrypt', N, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
};

export const verifyPassword = async (password: string, stored: string, ticket?: HashTicket): Promise<boolean> => {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p), ticket);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
};

/** A hash of nothing anyone knows, checked for unknown emails so both answers take as long. */
export const decoyHash = (N: number) => hashPassword(randomBytes(24).toString('hex'), N);

const common = new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));

/** Password rule: 8 to 128 characters, not one of the ~50 000 most common passwords, not the email itself. */
export const passwordProblem = (password: string, email: string): 'length' | 'common' | null => {
  if ([...password].length < 8 || [...password].length > 128) return 'length';
  const lower = password.toLowerCase();
  if (common.has(lower) || lower === email.toLowerCase() || lower === email.split('@')[0]?.toLowerCase()) return 'common';
  return null;
};

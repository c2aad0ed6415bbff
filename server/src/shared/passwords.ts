import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { dictionary } from '@zxcvbn-ts/language-common';
import { tooManyAttempts } from '../http/errors';

/**
 * scrypt runs on libuv's thread pool (4 threads unless UV_THREADPOOL_SIZE
 * says otherwise), which file reads, DNS and zlib share; each run takes about
 * 128 MB and a core for a third of a second. So at most `concurrency` run at
 * once (leaving the pool two threads and the event loop a core); up to
 * `maxWaiting` more wait their turn in order, as long as the expected wait
 * stays under `maxWaitMs`; beyond that a call is refused with 10009 and an
 * estimate of the seconds until the queue has room.
 */
export const createHashQueue = (concurrency: number, maxWaiting: number, maxWaitMs = 8000) => {
  let running = 0;
  const waiting: (() => void)[] = [];
  /** Moving average of one run, for the wait estimate. */
  let averageMs = 300;
  let completed = 0;
  /** No room: the line is at its length, or a newcomer would likely wait longer than a client does (10 s). */
  const full = () => waiting.length >= maxWaiting || (Math.floor(waiting.length / concurrency) + 1) * averageMs > maxWaitMs;
  const retryAfter = () => Math.max(1, Math.ceil(((waiting.length + 1) / concurrency + 1) * averageMs / 1000));
  return {
    concurrency,
    maxWaiting,
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (running < concurrency) running += 1;
      else if (full()) tooManyAttempts(retryAfter());
      // A finished run hands its place straight to the next in line.
      else await new Promise<void>((resolve) => waiting.push(resolve));
      const started = performance.now();
      try {
        return await work();
      } finally {
        averageMs = averageMs * 0.8 + (performance.now() - started) * 0.2;
        completed += 1;
        const next = waiting.shift();
        if (next) next();
        else running -= 1;
      }
    },
    /** Refuses with 10009 now when a run would be refused (before spending something single use). */
    ensureRoom(): void {
      if (running >= concurrency && full()) tooManyAttempts(retryAfter());
    },
    /** Runs now, runs waiting, runs finished since start. */
    stats: () => ({ running, waiting: waiting.length, completed }),
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

const derive = (password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> =>
  hashQueue.run(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
  );

export const hashPassword = async (password: string, N: number): Promise<string> => {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, 8, 1);
  return ['scrypt', N, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
};

export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
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

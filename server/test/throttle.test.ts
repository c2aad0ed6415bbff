import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../src/api/errors';
import { dropSchema, migrate, openDatabase, type Db } from '../src/db/database';
import { BusinessError } from '../src/http/errors';
import { createHashQueue, hashQueue } from '../src/shared/passwords';
import { createThrottle } from '../src/shared/throttle';
import { adjustBalance, BACKENDS, registerUser, startServer, type TestServer } from './harness';

/**
 * Concurrent requests against the throttles: every limit holds at its number
 * however many requests arrive at once, because the attempt is reserved in the
 * database before the password is looked at or the mail is sent.
 */

const PASSWORD = 'Sturdy-Passw0rd!';
const WRONG = 'Wrong-Passw0rd!';
const ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** scrypt runs finished so far in this process (the hashing queue counts them). */
const hashed = () => hashQueue.stats().completed;
const hashingIdle = () => vi.waitFor(() => expect(hashQueue.stats()).toMatchObject({ running: 0, waiting: 0 }), { timeout: 10_000 });

const FORGET_RUNS = 40;

/** Occupies up to `count` places of the hashing queue (as many as it lets in) until the returned function is called. */
const holdHashing = (count: number) => {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const held = Array.from({ length: count }, () => hashQueue.run(() => gate).catch(() => undefined));
  return async () => {
    open();
    await Promise.all(held);
    // The queue estimates waits from how long runs took: let it forget the held ones.
    for (let i = 0; i < FORGET_RUNS; i++) await hashQueue.run(async () => undefined);
  };
};

const codesOf = (answers: { body: { code: number } }[]) => {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.body.code] = (counts[answer.body.code] ?? 0) + 1;
  return counts;
};

describe.each(BACKENDS)('throttles under concurrency (%s)', (backend) => {
  let server: TestServer;
  let member: Awaited<ReturnType<typeof registerUser>>;
  const email = `owner-${randomUUID()}@example.com`;

  beforeAll(async () => {
    server = await startServer(backend);
    member = await registerUser(server, { email, password: PASSWORD });
  });
  afterAll(async () => server?.close());
  beforeEach(async () => {
    await server.db.deleteFrom('throttle_counters').execute();
    await server.db.deleteFrom('login_failures').execute();
    // A process repeats a refusal from memory for a second before asking the database again.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await hashingIdle();
  });

  const login = (password: string, who = email) => server.call('POST', '/api/user/login', { email: who, password });

  it('40 concurrent wrong logins of one account from one address: a few passwords checked, the rest refused with 10009 before any work', async () => {
    const before = hashed();
    const answers = await Promise.all(Array.from({ length: 40 }, () => login(WRONG)));
    const counts = codesOf(answers);
    // At most 2 of one account and address are judged at once, one waits in the hashing line per address,
    // and after 3 failures the next attempt waits. The delay is read before a password is judged and written
    // after, so in a burst a few attempts read the count before the last failures are written: a few more
    // than 4 may be checked, never the burst.
    expect((counts[ErrorCode.PASSWORD_ERROR] ?? 0) + (counts[ErrorCode.TOO_MANY_REQUESTS] ?? 0)).toBe(40);
    expect(counts[ErrorCode.PASSWORD_ERROR]).toBeGreaterThanOrEqual(1);
    expect(counts[ErrorCode.PASSWORD_ERROR]).toBeLessThanOrEqual(10);
    expect(hashed() - before).toBe(counts[ErrorCode.PASSWORD_ERROR]);
    for (const answer of answers.filter((a) => a.body.code === ErrorCode.TOO_MANY_REQUESTS)) {
      expect(answer.body.data.retryAfter).toBeGreaterThan(0);
      expect(answer.body.data.retryAfter).toBeLessThanOrEqual(900);
    }
  });

  it('39 wrong and 1 right at once on a busy server: one waits for the hashing line, the others are refused', async () => {
    // The hashing queue is held, as on a busy server.
    const release = holdHashing(hashQueue.concurrency);
    const before = hashed();
    let answered = 0;
    const pending = Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const answer = await login(i === 3 ? PASSWORD : WRONG);
        answered += 1;
        return answer;
      }),
    );
    // 2 pass the per account-and-address gate; one address has at most one place in the line: 39 or 40 are refused.
    try {
      await vi.waitFor(() => expect(hashQueue.stats().waiting <= 1 && answered + hashQueue.stats().waiting === 40).toBe(true), { timeout: 10_000 });
    } finally {
      await release();
    }
    const answers = await pending;
    const counts = codesOf(answers);
    const checked = (counts[ErrorCode.PASSWORD_ERROR] ?? 0) + (counts[ErrorCode.SUCCESS] ?? 0);
    expect(counts[ErrorCode.TOO_MANY_REQUESTS]).toBe(40 - checked);
    expect(checked).toBeLessThanOrEqual(1);
    expect(hashed() - before - hashQueue.concurrency - FORGET_RUNS).toBe(checked);
  });

  it('20 concurrent code requests for one email send exactly 1 mail', async () => {
    const target = `code-${randomUUID()}@example.com`;
    const mailsTo = () => server.outbox().filter((mail) => mail.includes(`To: ${target}`)).length;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => server.call('POST', '/api/user/verify-code', { email: target, type: 'register' })),
    );
    expect(codesOf(answers)).toEqual({ [ErrorCode.SUCCESS]: 1, [ErrorCode.TOO_MANY_REQUESTS]: 19 });
    expect(mailsTo()).toBe(1);
  });

  it('20 concurrent wrong old passwords on change-password: 5 checked, the rest 10009', async () => {
    const before = hashed();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        server.call('POST', '/api/user/change-password', { oldPassword: WRONG, newPassword: 'Brand-New-Passw0rd', secondPassword: 'Brand-New-Passw0rd' }, { token: member.accessToken }),
      ),
    );
    expect(codesOf(answers)).toEqual({ [ErrorCode.PASSWORD_ERROR]: 5, [ErrorCode.TOO_MANY_REQUESTS]: 15 });
    expect(hashed() - before).toBe(5);
  });

  it('20 concurrent wrong withdrawal passwords: 5 checked, the rest 10009; 10 right ones at once all pass the check', async () => {
    await adjustBalance(server, member.user.id, 'USDT', '1000');
    const withdraw = (password: string) =>
      server.call('POST', '/api/wallet/withdraw', { amount: '10', address: ADDRESS, password, idempotencyKey: randomUUID() }, { token: member.accessToken });
    // Right passwords give their slot back: more of them than the limit, at once, all pass the check
    // (those beyond the limit wait for the checks in flight).
    const right = await Promise.all(Array.from({ length: 10 }, () => withdraw(PASSWORD)));
    expect(right.every((answer) => answer.body.code !== ErrorCode.PASSWORD_ERROR && answer.body.code !== ErrorCode.TOO_MANY_REQUESTS)).toBe(true);
    const before = hashed();
    const answers = await Promise.all(Array.from({ length: 20 }, () => withdraw(WRONG)));
    expect(codesOf(answers)).toEqual({ [ErrorCode.PASSWORD_ERROR]: 5, [ErrorCode.TOO_MANY_REQUESTS]: 15 });
    expect(hashed() - before).toBe(5);
  });

  it('limits successful logins: 10 per account in 15 minutes, also when they arrive at once', async () => {
    const before = hashed();
    // At once: some pass, the rest wait their turn in the hashing line or are refused, and never more than the
    // limit passes (how many are judged at once depends on the machine's speed; the line's own rules are
    // tested below).
    const burst = await Promise.all(Array.from({ length: 16 }, () => login(PASSWORD)));
    const counts = codesOf(burst);
    expect((counts[ErrorCode.SUCCESS] ?? 0) + (counts[ErrorCode.TOO_MANY_REQUESTS] ?? 0)).toBe(16);
    expect(counts[ErrorCode.SUCCESS]).toBeGreaterThanOrEqual(1);
    expect(counts[ErrorCode.SUCCESS]).toBeLessThanOrEqual(10);
    let successes = counts[ErrorCode.SUCCESS]!;
    // Those refused in the burst are refused from memory for a second more.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    for (;;) {
      const answer = await login(PASSWORD);
      if (answer.body.code !== ErrorCode.SUCCESS) {
        expect(answer.body.code).toBe(ErrorCode.TOO_MANY_REQUESTS);
        expect(answer.body.data.retryAfter).toBeGreaterThan(800);
        break;
      }
      successes += 1;
      expect(successes).toBeLessThanOrEqual(10);
    }
    expect(successes).toBe(10);
    expect(hashed() - before).toBe(10);
  });

  it('a login refused by a full hashing queue answers 10009 with retryAfter and counts nothing', async () => {
    const release = holdHashing(hashQueue.concurrency + hashQueue.maxWaiting);
    try {
      // As many as the failure limit: all reserve, none is judged.
      const answers = await Promise.all(Array.from({ length: 5 }, () => login(WRONG)));
      for (const answer of answers) {
        expect(answer.body).toMatchObject({ code: ErrorCode.TOO_MANY_REQUESTS, data: { retryAfter: expect.any(Number) } });
        expect(answer.body.data.retryAfter).toBeGreaterThanOrEqual(1);
      }
    } finally {
      await release();
    }
    // None of the 5 was counted as a failure: 4 wrong tries are still judged, then the next waits.
    for (let attempt = 0; attempt < 4; attempt++) expect((await login(WRONG)).body.code).toBe(ErrorCode.PASSWORD_ERROR);
    expect((await login(PASSWORD)).body.code).toBe(ErrorCode.TOO_MANY_REQUESTS);
  });

  it('a window that has ended starts afresh, and purge deletes its counter', async () => {
    const throttle = createThrottle(server.db);
    const rule = [{ key: 'purge-me', limits: [{ max: 1, windowSeconds: 60 }] }];
    await throttle.take(rule);
    await expect(throttle.take(rule)).rejects.toMatchObject({ code: ErrorCode.TOO_MANY_REQUESTS });
    await server.db.updateTable('throttle_counters').set({ window_start: new Date(Date.now() - 61_000) }).where('key', '=', 'purge-me').execute();
    await throttle.purge();
    expect(await server.db.selectFrom('throttle_counters').select('key').where('key', '=', 'purge-me').execute()).toEqual([]);
    // Another process (no refusal in its memory) gets the slot of the new window.
    await createThrottle(server.db).take(rule);
  });

  it('limits registration per IP: 10 attempts in 10 minutes, refusals included', async () => {
    const register = () =>
      server.call('POST', '/api/user/register', {
        email,
        nickname: 'Trader',
        password: PASSWORD,
        secondPassword: PASSWORD,
        captcha: '123456',
        inviteCode: '',
        rememberMe: true,
      });
    const answers = await Promise.all(Array.from({ length: 14 }, register));
    expect(codesOf(answers)).toEqual({ [ErrorCode.ALREADY_EXISTS]: 10, [ErrorCode.TOO_MANY_REQUESTS]: 4 });
  });
});

describe('the hashing queue', () => {
  it('runs at most its concurrency at once, lines up the rest in order and refuses beyond the line or the expected wait', async () => {
    const queue = createHashQueue(1, 3, 700);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const order: number[] = [];
    const first = queue.run(async () => {
      await gate;
      order.push(0);
    });
    // The estimate starts at 300 ms a run: two in line would wait 600 ms, a third 900 ms (over 700).
    const lined = [1, 2].map((n) => queue.run(async () => void order.push(n)));
    expect(queue.stats()).toMatchObject({ running: 1, waiting: 2 });
    const refused = await queue.run(async () => 'ran').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BusinessError);
    expect(refused).toMatchObject({ code: ErrorCode.TOO_MANY_REQUESTS, data: { retryAfter: expect.any(Number) } });
    expect((refused as BusinessError & { data: { retryAfter: number } }).data.retryAfter).toBeGreaterThanOrEqual(1);
    expect(() => queue.ensureRoom()).toThrow(BusinessError);
    open();
    await Promise.all([first, ...lined]);
    expect(order).toEqual([0, 1, 2]);
    expect(queue.stats()).toEqual({ running: 0, waiting: 0, completed: 3, pushedOut: 0 });
    expect(() => queue.ensureRoom()).not.toThrow();
  });
});

describe('the hashing queue shared fairly', () => {
  it('keeps one waiting run per address, serves a known address first and lets it push out a guessing one', async () => {
    const queue = createHashQueue(1, 2, 60_000);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const order: string[] = [];
    const running = queue.run(async () => {
      await gate;
      order.push('first');
    });
    const flood = (lane: string, penalty: number) => queue.run(async () => void order.push(lane), { lane, penalty }).catch((error: unknown) => error);
    const floodA = flood('10.0.0.1', 3);
    // A second waiting run of the same address is refused at once.
    expect(await flood('10.0.0.1', 3)).toMatchObject({ code: ErrorCode.TOO_MANY_REQUESTS });
    const floodB = flood('10.0.0.2', 1);
    expect(queue.stats()).toMatchObject({ running: 1, waiting: 2 });
    // The line is full: a login from a known address (penalty 0) pushes out the worst placed one.
    const owner = flood('192.0.2.7', 0);
    expect(await floodA).toMatchObject({ code: ErrorCode.TOO_MANY_REQUESTS });
    // Nobody better placed than the waiting ones: a newcomer as bad as the worst is refused.
    expect(await flood('10.0.0.3', 5)).toMatchObject({ code: ErrorCode.TOO_MANY_REQUESTS });
    open();
    await Promise.all([running, owner, floodB]);
    expect(order).toEqual(['first', '192.0.2.7', '10.0.0.2']);
    expect(queue.stats()).toMatchObject({ running: 0, waiting: 0, pushedOut: 1 });
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('throttle shared by two processes (postgres)', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let first: Db;
  let second: Db;

  beforeAll(async () => {
    first = await openDatabase({ url: process.env.TEST_DATABASE_URL, schema });
    await migrate(first, schema);
    second = await openDatabase({ url: process.env.TEST_DATABASE_URL, schema });
  });
  afterAll(async () => {
    await dropSchema(first, schema);
    await first.destroy();
    await second.destroy();
  });

  it('60 takes at once through two connection pools: exactly the limit passes', async () => {
    const throttles = [createThrottle(first), createThrottle(second)];
    const limits = [{ max: 7, windowSeconds: 60 }, { max: 100, windowSeconds: 3600 }];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) => throttles[i % 2]!.take([{ key: 'shared', limits }, { key: `other-${i % 3}`, limits: [{ max: 50, windowSeconds: 60 }] }])),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(7);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(BusinessError);
    }
    // Refused takes gave back what they had counted elsewhere.
    const rows = await first.selectFrom('throttle_counters').select(['key', 'window_seconds', 'count']).orderBy('key').orderBy('window_seconds').execute();
    expect(rows.find((r) => r.key === 'shared' && r.window_seconds === 3600)?.count).toBe(7);
    expect(rows.filter((r) => r.key.startsWith('other-')).reduce((sum, r) => sum + r.count, 0)).toBe(7);
  });
});

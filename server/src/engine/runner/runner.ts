import { sql } from 'kysely';
import { SIMULATOR } from '../../../../src/api/exchange';
import type { EngineStatus } from '../../../../src/api/trade';
import { quietBounds } from '../core/decide';
import { createTaskIndex, type Placement } from '../core/taskIndex';
import { createEngineStore, emptyWrites, hasWrites } from '../store/journal';
import { createLeases } from '../store/shards';
import { createExchangeClients } from '../venues/exchangeClients';
import { createExchangeShared } from '../venues/exchangeShared';
import { processPauses } from '../venues/exchangePauses';
import { PAPER_MARKETS } from '../venues/paper/market';
import { createSharedMarket } from '../venues/paper/sharedMarket';
import { createPaperVenues, type PaperVenue } from '../venues/paperVenues';
import { createCommands } from './commands';
import { FLUSH_EVERY_TICKS, isUsablePrice, stateWrite, type CommandKind, type EngineContext, type EngineOptions, type LiveTask, type TaskAlert } from './context';
import { createIntents } from './intents';
import { createLanes } from './lanes';
import { createOutages } from './outages';
import { createPriceNotices } from './priceNotices';
import { createSignals } from './signals';
import { createTurn, type PaperPriceNotices } from './turn';

export {
  isUsablePrice,
  newClientOrderId,
  PAUSE_AFTER_FAILURES,
  type CommandKind,
  type CommandResult,
  type EngineOptions,
  type LiveTask,
  type OrderRequest,
  type TaskAlert,
} from './context';

/**
 * The runner. Every tick it moves the market, asks the task index which
 * tasks the new prices (or the clock) concern, asks the decision function
 * about those, carries out their orders on the paper exchange in memory and
 * writes the whole tick in one transaction (store/journal.ts): the orders with their
 * fills, the positions, the events, the closed cycles with their fuel and
 * the paper balances. All of it lands or none; if the tick's transaction
 * fails, everything is put back and each task's orders are tried again in a
 * transaction of their own, so one bad order never holds the others back.
 * Real exchanges (ccxt) trade in lanes of their own, one per account, off
 * the tick: intent committed, order sent, outcome applied (crash-safe, never
 * sent twice).
 *
 * One task never stops another: a task whose turn throws gets an error event
 * and backs off (1, 2, 4 ... ticks); after PAUSE_AFTER_FAILURES in a row it is
 * paused with the error on its page. An outage of what all tasks share (the
 * database, an exchange) is no task's failure: it is reported once, in the
 * status and the log, and the tasks go on when it ends (outages.ts). A price
 * that is not a decimal above 0 is never decided on. Every call into the runner is serialized, and a failure
 * never leaves that chain broken.
 */
export const createRunner = (options: EngineOptions) => {
  const { db, log } = options;
  const store = createEngineStore(db, options.domains);
  const shared = createSharedMarket({
    seed: options.seed,
    markets: options.market?.markets ?? PAPER_MARKETS,
    ...(options.replay ? { replay: options.replay } : {}),
    ...(options.market ? { market: options.market } : {}),
  });
  const market = shared.market;
  const paperFeeRate = options.feeRate ?? '0.001';
  const venues = createPaperVenues({ market, feeRate: paperFeeRate, priceSources: options.priceSources, loadBalances: store.paperBalances });
  const { paper } = venues;
  const exchangeShared = options.exchangeShared ?? createExchangeShared(processPauses);
  const clients = createExchangeClients({ db, exchangeMasterKey: options.exchangeMasterKey, createExchange: options.createExchange, shared: exchangeShared });
  const index = createTaskIndex();
  const tasks = new Map<string, LiveTask>();
  let timer: NodeJS.Timeout | null = null;
  let immediate: NodeJS.Immediate | null = null;
  let running = false;
  let busy: Promise<unknown> = Promise.resolve();
  const health = { startedAt: null as number | null, lastTickAt: null as number | null, lastTickMs: 0, maxTickMs: 0, failedTicks: 0 };
  const run: EngineContext['run'] = { ticks: 0, leases: null };
  const now = () => market.now();
  const outages = createOutages(log);

  /** Every journal write says whether the database takes writes: a failure of its own starts an outage, a success ends it. */
  let journalWrites = 0;
  const journalled = async (...args: Parameters<typeof store.commit>) => {
    if (!hasWrites(args[0])) return;
    journalWrites += 1;
    try {
      await store.commit(...args);
    } catch (error) {
      if (outages.sharedCause(error) === 'database') outages.down('database', error);
      throw error;
    }
    outages.up('database');
  };
  /** While the database is down and a tick wrote nothing, one statement asks whether it takes writes again (it changes no row). */
  const probeDatabase = async () => {
    try {
      await sql`update trade_tasks set updated_at = updated_at where false`.execute(db);
      outages.up('database');
    } catch {
      // Still down: reported when it started.
    }
  };

  /** Runs `work` after everything queued before it; the queue survives its failure. */
  const serialize = <T>(work: () => Promise<T>): Promise<T> => {
    const result = busy.then(work);
    busy = result.catch(() => undefined);
    return result;
  };

  const ctx: EngineContext = {
    options,
    db,
    log,
    store,
    market,
    paperFeeRate,
    venues,
    clients,
    index,
    tasks,
    pendingIntents: new Map(),
    badPrices: new Set(),
    outages,
    run,
    now,
    journal: (writes, fence) => journalled(writes, fence, options.journalMarketTime ? new Date(now()) : undefined),
    fenceFor: (touched) => (run.leases ? { check: run.leases.fence, shards: new Set([...touched].map((task) => task.shard)) } : undefined),
    place: (task) => index.place(task.id, placementOf(task)),
  };
  const { journal, fenceFor, place, badPrices } = ctx;
  const signals = createSignals(ctx);
  const turn = createTurn(ctx, signals);
  const lanes = createLanes(ctx, turn, signals);
  const intents = createIntents(ctx);
  const commands = createCommands(ctx, turn, lanes, intents);
  const { priceKeyOf } = turn;

  /** Where the index files a task now, from its state (see core/taskIndex.ts). */
  const placementOf = (task: LiveTask): Placement => {
    const { state } = task;
    // A TradingView alert is acted on (or refused with its reason) at the next tick, whatever the task is doing.
    if (task.alert) return { by: 'every' };
    if (task.finished || !task.params.running) return { by: 'none' };
    if (task.backoffUntilTick > run.ticks) return { by: 'tick', at: task.backoffUntilTick };
    if (task.retryAfter === Number.POSITIVE_INFINITY) return { by: 'none' };
    if (task.retryAfter > now()) return { by: 'time', at: task.retryAfter };
    if (task.real || state.pendingOrder) return { by: 'every' };
    // A task with conditions decides again when the next minute closes (its gates may change), even at a quiet price.
    const nextMinute = signals.nextMinute(task);
    if (state.phase === 'open') {
      const bounds = quietBounds({ ...task.params, feeRate: paperFeeRate }, task.strategy, state);
      return bounds ? { by: 'price', symbol: priceKeyOf(task), ...bounds, ...(nextMinute === undefined ? {} : { at: nextMinute }) } : { by: 'every' };
    }
    if (task.fuelWaitUntil !== null && task.fuelWaitUntil > now()) return { by: 'time', at: task.fuelWaitUntil };
    if (state.phase === 'cooldown' && state.cooldownUntil !== null && state.cooldownUntil > now()) return { by: 'time', at: state.cooldownUntil };
    // Waiting for its start gate: nothing changes before the next minute closes.
    if (nextMinute !== undefined && !signals.startHolds(task)) return { by: 'time', at: nextMinute };
    return { by: 'every' };
  };

  // ------------------------------------------------------------------ ticks

  const flush = async () => {
    // Also the tasks whose waiting status changed (signals.ts): written here, once per flush, not in each tick's commit.
    const waits = signals.takeUnwritten().filter((task) => tasks.get(task.id) === task && !task.dirty);
    const dirty = [...tasks.values()].filter((task) => task.dirty).concat(waits);
    if (dirty.length === 0) return;
    try {
      await journal({ ...emptyWrites(), states: dirty.map(stateWrite) }, fenceFor(dirty));
      for (const task of dirty) task.dirty = false;
    } catch (error) {
      for (const task of waits) task.dirty = true;
      // While the database is down its outage is reported once, not at every flush.
      if (!outages.isDown('database')) log.error({ err: error, tasks: dirty.length }, 'task states could not be written; trying again at the next flush');
    }
  };

  /** In replay mode the recorded candles start to play once a task on their pair runs (any process's, in cluster mode). */
  let replayCheckedAt = 0;
  const startReplayWhenTraded = async () => {
    const replay = market.replay;
    if (!replay || replay.status().started) return;
    let traded = [...tasks.values()].some((task) => task.symbol === replay.symbol && task.params.running && !task.finished);
    if (!traded && run.leases && Date.now() - replayCheckedAt > 1000) {
      replayCheckedAt = Date.now();
      traded = !!(await db.selectFrom('trade_tasks').select('id').where('symbol', '=', replay.symbol).where('running', '=', true).where('status', '=', 'active').executeTakeFirst());
    }
    if (traded) {
      replay.start();
      log.info({ symbol: replay.symbol }, 'replay started');
    }
  };

  /** The market's move for this tick: run it (and publish it) or mirror the process that runs it. */
  const moveMarket = async (seconds: number) => {
    if (!run.leases || shared.leads()) {
      await startReplayWhenTraded();
      market.tick(seconds);
      // The simulator's candles (the charts' history), and in cluster mode its prices for the other processes.
      await shared.record(db, { candles: options.recordCandles !== false, publish: !!run.leases });
    } else {
      await shared.refresh(db);
    }
    for (const venue of venues.all()) venue.paper.onTick();
  };

  /** Pairs whose price call threw, logged once until they are priced again. */
  const unpriced = new Set<string>();

  /**
   * This tick's price (the bid) of every pair with paper tasks, by venue and
   * pair (the simulator's, or a live market's); unusable ones are left out
   * and logged once. Live markets are told which pairs to keep fresh, also
   * while their accounts wait on the simulator for them to come back. A venue
   * that prices none of its pairs is an outage of that venue (outages.ts).
   */
  const tickPrices = () => {
    const prices = new Map<string, string>();
    const wanted = new Map<string, { venue: PaperVenue; symbol: string }>();
    for (const task of tasks.values()) {
      if (task.real || task.finished) continue;
      if (task.priceSource && task.priceSource !== SIMULATOR) options.priceSources?.liveMarket(task.priceSource).want([task.symbol]);
      const venue = venues.venueFor(task);
      wanted.set(`${venue.key}|${task.symbol}`, { venue, symbol: task.symbol });
    }
    // A venue none of whose pairs can be priced is down as a whole: one outage, not a failure per pair.
    const unreachable = new Map<PaperVenue, { error: unknown; names: string[]; priced: boolean }>();
    for (const [key, { venue, symbol }] of wanted) {
      const name = venue === venues.simulator ? symbol : `${venue.key}:${symbol}`;
      const reach = unreachable.get(venue) ?? { error: null, names: [], priced: false };
      unreachable.set(venue, reach);
      let price: unknown;
      try {
        price = venue.feed.bestPrices(symbol).bid;
        reach.priced = true;
      } catch (error) {
        reach.error ??= error;
        reach.names.push(name);
        badPrices.add(name);
        continue;
      }
      if (!isUsablePrice(price)) {
        if (!badPrices.has(name)) log.error({ symbol: name, price: String(price) }, 'unusable price refused; its tasks wait for a valid one');
        badPrices.add(name);
        continue;
      }
      if (badPrices.delete(name)) log.info({ symbol: name, price }, 'the price is usable again');
      prices.set(key, price);
    }
    for (const [venue, reach] of unreachable) {
      const dependency = `exchange:${venue.key}` as const;
      if (!reach.priced && reach.names.length > 0) {
        outages.down(dependency, reach.error);
        continue;
      }
      outages.up(dependency);
      for (const name of reach.names) {
        if (!unpriced.has(name)) log.error({ err: reach.error, symbol: name }, 'no price for the symbol; its tasks wait');
        unpriced.add(name);
      }
    }
    for (const name of unpriced) if (!badPrices.has(name)) unpriced.delete(name);
    return prices;
  };

  const priceNotices = createPriceNotices();
  /**
   * The paper accounts on a live source whose owners are to be told it fell
   * back to the simulator or came back (once per account and change, after
   * the hysteresis of priceNotices.ts); committed with this tick's turn.
   */
  const paperPriceNotices = (): PaperPriceNotices | undefined => {
    const sources = options.priceSources;
    if (!sources) return undefined;
    const accounts = new Map<string, string>();
    const byAccount = new Map<string, LiveTask>();
    for (const task of tasks.values()) {
      if (task.real || task.finished || !task.priceSource || task.priceSource === SIMULATOR) continue;
      accounts.set(task.accountId, task.priceSource);
      byAccount.set(task.accountId, task);
    }
    const at = sources.now();
    for (const source of new Set(accounts.values())) priceNotices.observe(sources.status(source), at);
    const notices = priceNotices.due(accounts);
    if (notices.length === 0) return undefined;
    return { notices, tasks: notices.map((notice) => byAccount.get(notice.accountId)!), told: () => priceNotices.told(notices) };
  };

  /** One second of market (one candle in replay mode) and the decisions of the tasks it concerns. */
  const tick = (seconds = 1): Promise<void> =>
    serialize(async () => {
      const started = Date.now();
      const writesBefore = journalWrites;
      let due: LiveTask[] = [];
      try {
        await moveMarket(seconds);
        signals.onTick();
        run.ticks += 1;
        await commands.runCommands();
        const prices = tickPrices();
        const numeric = new Map([...prices].map(([symbol, price]) => [symbol, Number(price)]));
        due = index.due(numeric, now(), run.ticks).flatMap((id) => tasks.get(id) ?? []);
        const paperDue = due.filter((task) => !task.real && run.ticks >= task.backoffUntilTick);
        try {
          await signals.preparePaper(paperDue);
          await turn.runPaper(paperDue, prices, paperPriceNotices());
        } finally {
          for (const task of paperDue) if (tasks.has(task.id)) place(task);
        }
        for (const task of due) if (!task.real && run.ticks < task.backoffUntilTick) place(task);
        lanes.startLanes(due.filter((task) => task.real));
        if (run.ticks % FLUSH_EVERY_TICKS === 0) await flush();
        if (outages.isDown('database') && journalWrites === writesBefore) await probeDatabase();
        // A tick whose writes the database refused failed too, though each task waits without a failure of its own.
        if (outages.tickFailed()) health.failedTicks += 1;
      } catch (error) {
        health.failedTicks += 1;
        if (outages.sharedCause(error) === 'database') {
          outages.down('database', error);
          outages.tickFailed();
        } else {
          log.error({ err: error }, 'engine tick failed');
        }
        // Nothing may fall out of the index: whatever was due is filed again.
        for (const task of due) if (tasks.has(task.id)) place(task);
      } finally {
        const took = Date.now() - started;
        health.lastTickAt = Date.now();
        health.lastTickMs = took;
        health.maxTickMs = Math.max(health.maxTickMs, took);
      }
    });

  /**
   * Schedules the next tick: every tickMs from the start of the last one (a
   * slow tick delays the next, never stacks them), or back to back while a
   * continuous replay plays.
   */
  const schedule = () => {
    if (!running) return;
    const replay = shared.publishedReplay();
    if (options.continuous === true && (!replay || !replay.done)) {
      immediate = setImmediate(() => {
        immediate = null;
        void tick().then(schedule);
      });
      return;
    }
    if (options.tickMs === 0) return;
    timer = setTimeout(
      () => {
        timer = null;
        void tick().then(schedule);
      },
      Math.max(0, options.tickMs - health.lastTickMs),
    );
    timer.unref();
  };

  const status = (): EngineStatus => {
    let attention = 0;
    let failing = 0;
    let runningTasks = 0;
    for (const task of tasks.values()) {
      if (task.finished) continue;
      if (task.params.running) runningTasks += 1;
      if (task.attention) attention += 1;
      if (task.failures > 0) failing += 1;
    }
    const lastTickAt = health.lastTickAt;
    const interval = options.continuous ? 0 : options.tickMs;
    const replay = shared.publishedReplay();
    return {
      running,
      startedAt: health.startedAt === null ? null : new Date(health.startedAt).toISOString(),
      ticks: run.ticks,
      tickMs: options.tickMs,
      lastTickAt: lastTickAt === null ? null : new Date(lastTickAt).toISOString(),
      lastTickMs: health.lastTickMs,
      maxTickMs: health.maxTickMs,
      // How far the next tick is overdue: 0 while the engine keeps its pace.
      lagMs: running && lastTickAt !== null && interval > 0 ? Math.max(0, Date.now() - lastTickAt - interval) : 0,
      failedTicks: health.failedTicks,
      outages: outages.list(),
      marketTime: new Date(now()).toISOString(),
      tasks: { loaded: tasks.size, running: runningTasks, attention, failing },
      unusablePrices: [...badPrices].sort(),
      replay: replay ? { ...replay, candleTime: new Date(replay.candleTime).toISOString() } : null,
    };
  };

  return {
    market,
    paper,
    /** The live public markets its paper accounts may trade on (none: every paper account on the simulator). */
    priceSources: options.priceSources ?? null,
    /** The paper exchange holding an account's balances (the simulator's, or a live market's). */
    paperFor: venues.paperOf,
    tasks,
    store,
    tick,
    flush: () => serialize(flush),
    ensureAccount: venues.ensureAccount,
    status,
    /** The cluster's nodes and shards (cluster mode). */
    cluster: () => run.leases?.view() ?? Promise.resolve(null),
    /** Runs a lease round now (cluster mode; tests). */
    leaseRound: () => run.leases?.round() ?? Promise.resolve(),
    /** The signal conditions' shared indicators (feeds) and gate evaluations so far. */
    signalCounts: signals.counts,
    /** The fee a paper fill pays, a fraction. */
    paperFeeRate,
    /** The account's exchange client; null for a paper account. */
    clientFor: clients.clientFor,
    /** Drops the account's cached client after its keys changed or it was removed: the next use builds it from the stored keys. */
    forgetClient: (accountId: string) => {
      clients.forget(accountId);
      lanes.forgetFees(accountId);
    },
    /** The last price of a real account's pair seen by the engine, if any. */
    lastPrice: lanes.lastPrice,
    /** Whether this process drives the task (cluster mode: its shard is leased here). */
    drives: (taskId: string) => tasks.has(taskId),
    /** Whether this process drives the tasks of this shard. */
    holdsShard: (shard: number) => !run.leases || run.leases.holdsShard(shard),
    /** Carries out a user's action on a task this process drives, between run.ticks. */
    command: (taskId: string, kind: CommandKind, alert?: TaskAlert) => serialize(() => commands.runCommand(taskId, kind, undefined, alert)),
    /** (Re)reads one task after the API changed it. */
    reload: (taskId: string) => serialize(() => intents.reloadTask(taskId)),
    /** Reads new or changed tasks in one turn between ticks (a multi-pair creation waits for one turn, not one per pair). */
    reloadAll: (taskIds: readonly string[]) =>
      serialize(async () => {
        for (const taskId of taskIds) await intents.reloadTask(taskId);
      }),
    /** Runs work between run.ticks (never in the middle of one). */
    exclusive: <T>(work: () => Promise<T>): Promise<T> => serialize(work),
    /** Resolves once the queued work and every real account's lane are done (tests, a clean stop). */
    idle: async () => {
      await busy;
      for (let pending = lanes.running(); pending.length > 0; pending = lanes.running()) await Promise.all(pending);
    },
    async start() {
      if (options.cluster) {
        run.leases = createLeases({
          db,
          log,
          ...(options.leaseMs ? { ttlMs: options.leaseMs, renewMs: Math.max(250, Math.round(options.leaseMs / 4)) } : {}),
          events: {
            acquired: (shards) => serialize(async () => intents.adopt(await store.loadTasks({ shards }))),
            lost: (shards) =>
              serialize(async () => {
                await flush();
                intents.drop(shards);
              }),
            // Each process takes its share of every exchange's request budget (rateBudget.ts).
            processes: (count) => exchangeShared.budgets.setProcesses(count),
            market: async (held) => {
              if (held) {
                await shared.refresh(db);
                shared.lead();
              } else {
                shared.follow();
              }
            },
          },
        });
        await shared.refresh(db);
        await run.leases.start();
        await busy;
      } else {
        shared.lead();
        await intents.adopt(await store.loadTasks(options.taskIds ? { ids: [...options.taskIds] } : {}));
      }
      running = true;
      health.startedAt = Date.now();
      schedule();
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
      timer = null;
      immediate = null;
      await busy;
      await Promise.all(lanes.running());
      await flush();
      await run.leases?.stop();
      await options.tickerFeed?.close();
    },
  };
};

export type Runner = ReturnType<typeof createRunner>;

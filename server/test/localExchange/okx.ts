import Big from 'big.js';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import recorded from '../fixtures/okx-orders.json';
import keyCheck from '../fixtures/okx.json';
import { seeded } from './binance';

/**
 * A local OKX (v5 REST) for what the engine asks of it: spot instruments,
 * tickers, the trading account's balance, market orders by clOrdId
 * (`trade/batch-orders`, as ccxt places them), an order's cancel
 * (`trade/cancel-order`), the order by clOrdId, its fills, pending orders,
 * the server time, and the key check's account config. Answers are shaped
 * from the recorded ones (fixtures/okx-orders.json): HTTP 200 with a
 * non-zero `code` for business errors, `sCode` per order.
 *
 * It checks the key, passphrase and signature (50111, 50105, 50113) and the
 * timestamp (50102 past 30 s), the minimum size (51020) and the balance
 * (51008), and charges a 0.1 % fee in the received asset, reported negative
 * as OKX does. Faults are queued per endpoint (`fault`) or drawn from the
 * seed (`randomFaults`).
 */

export type OkxFault =
  /** The order is placed, then the connection dropped without an answer. */
  | { kind: 'drop_answer' }
  /** The answer (after the request is carried out) comes this late: past the client's timeout, a timeout. */
  | { kind: 'delay_answer'; ms: number }
  /** A 5XX without carrying the request out: 500 with OKX's 50026 (system error), or a gateway's own 502 or 504 page, not OKX's JSON. */
  | { kind: 'server_error'; status: 500 | 502 | 504 }
  /** 429, code 50011. */
  | { kind: 'rate_limit' }
  /** 503, code 50001 (matching engine upgrading). */
  | { kind: 'maintenance' }
  /** The order fills this share and stays `partially_filled` until cancelled. */
  | { kind: 'partial_fill'; share: string }
  /** The order is refused as above the market's largest (sCode 51202), as OKX answers an order over `maxMktSz`. */
  | { kind: 'too_large' };

export type OkxEndpoint =
  | 'POST /trade/batch-orders'
  | 'POST /trade/cancel-order'
  | 'GET /trade/order'
  | 'GET /trade/orders-pending'
  | 'GET /account/balance'
  | 'GET /market/ticker'
  | 'GET /public/instruments'
  | 'GET /public/time'
  | 'GET /trade/fills'
  | 'GET /trade/fills-history';

export interface OkxRandomFaults {
  /** Chance of a fault per request, 0..1. */
  rate: number;
  kinds: OkxFault[];
}

const ORDER_ENDPOINT = 'POST /trade/batch-orders';
/** Faults only an order placement can meet; a 5XX meets only the other requests (a read's, a cancel's). */
const ORDER_ONLY = new Set<OkxFault['kind']>(['drop_answer', 'partial_fill', 'too_large']);

interface OkxAccount {
  apiKey: string;
  secret: string;
  passphrase: string;
  balances: Record<string, { avail: Big; frozen: Big }>;
}

interface OkxOrder {
  account: OkxAccount;
  instId: string;
  ordId: string;
  clOrdId: string;
  side: 'buy' | 'sell';
  sz: Big;
  tgtCcy: string;
  accFillSz: Big;
  quote: Big;
  fee: Big;
  feeCcy: string;
  state: 'live' | 'partially_filled' | 'filled' | 'canceled';
  /** '1' once the user cancelled it (OKX's cancelSource), else ''. */
  cancelSource: string;
  cTime: number;
  uTime: number;
}

interface OkxFill {
  instId: string;
  tradeId: string;
  ordId: string;
  clOrdId: string;
  fillPx: Big;
  fillSz: Big;
  side: 'buy' | 'sell';
  fee: Big;
  feeCcy: string;
  ts: number;
}

const FEE_RATE = new Big('0.001');
const DECIMALS = 8;

export const startLocalOkx = async ({ prices: start = {}, seed = 1 }: { prices?: Record<string, string>; seed?: number } = {}) => {
  const random = seeded(seed);
  const instruments = recorded.instruments.body.data;
  const prices = new Map<string, Big>(Object.entries({ 'BTC-USDT': '67112.1', 'ETH-USDT': '3500.01', ...start }).map(([instId, price]) => [instId, new Big(price)]));
  const accounts = new Map<string, OkxAccount>();
  const orders: OkxOrder[] = [];
  const fills: OkxFill[] = [];
  const faults = new Map<string, OkxFault[]>();
  let randomFaults: OkxRandomFaults | undefined;
  /** Every request, in order: its answer's HTTP status and OKX code, the fault it met, the account and the clOrdId it named. */
  const requests: { endpoint: string; at: number; status: number; code?: string; fault?: OkxFault['kind']; apiKey?: string; clOrdId?: string }[] = [];
  const faultsMet = new Map<string, number>();
  let skewMs = 0;
  let nextOrdId = 1512345678901234567n;
  let nextTradeId = 702154387;

  const now = () => Date.now() + skewMs;
  const instrument = (instId: string | null) => instruments.find((candidate) => candidate.instId === instId);
  const balanceOf = (account: OkxAccount, ccy: string) => (account.balances[ccy] ??= { avail: new Big(0), frozen: new Big(0) });
  const floorTo = (value: Big, step: string) => value.div(step).round(0, Big.roundDown).times(step);

  class Refusal extends Error {
    constructor(
      readonly status: number,
      readonly code: string,
      message: string,
    ) {
      super(message);
    }
  }
  const ok = (data: unknown[]) => ({ code: '0', msg: '', data });

  const orderAnswer = (order: OkxOrder) => {
    const average = order.accFillSz.gt(0) ? order.quote.div(order.accFillSz).round(1).toFixed() : '';
    return {
      ...recorded.orderQuery.body.data[0],
      accFillSz: order.accFillSz.toFixed(),
      avgPx: average,
      cTime: String(order.cTime),
      cancelSource: order.cancelSource,
      clOrdId: order.clOrdId,
      fee: order.fee.times(-1).toFixed(),
      feeCcy: order.feeCcy,
      fillPx: average,
      fillSz: order.accFillSz.toFixed(),
      fillTime: String(order.uTime),
      instId: order.instId,
      ordId: order.ordId,
      side: order.side,
      state: order.state,
      sz: order.sz.toFixed(),
      tgtCcy: order.tgtCcy,
      uTime: String(order.uTime),
    };
  };

  const fillAnswer = (fill: OkxFill) => ({
    instType: 'SPOT',
    instId: fill.instId,
    tradeId: fill.tradeId,
    ordId: fill.ordId,
    clOrdId: fill.clOrdId,
    billId: fill.tradeId,
    subType: fill.side === 'buy' ? '1' : '2',
    tag: '',
    fillPx: fill.fillPx.toFixed(),
    fillSz: fill.fillSz.toFixed(),
    fillIdxPx: '',
    fillPnl: '0',
    fillPxVol: '',
    fillPxUsd: '',
    fillMarkVol: '',
    fillFwdPx: '',
    fillMarkPx: '',
    side: fill.side,
    posSide: 'net',
    execType: 'T',
    feeCcy: fill.feeCcy,
    fee: fill.fee.times(-1).toFixed(),
    ts: String(fill.ts),
    fillTime: String(fill.ts),
  });

  /** A market order fills at the price path's price, in one fill (a share of it with partial_fill). */
  const place = (account: OkxAccount, request: Record<string, string>, fault: OkxFault | undefined) => {
    const market = instrument(request.instId ?? null);
    if (!market) throw new Refusal(200, '51001', 'Instrument ID does not exist.');
    if (request.ordType !== 'market' || request.tdMode !== 'cash') throw new Refusal(200, '51000', 'Parameter ordType error');
    if (!request.clOrdId || !/^[A-Za-z0-9]{1,32}$/.test(request.clOrdId)) throw new Refusal(200, '51000', 'Parameter clOrdId error');
    if (orders.some((order) => order.account === account && order.clOrdId === request.clOrdId)) throw new Refusal(200, '51016', 'Duplicated clOrdId');
    const side = request.side === 'sell' ? 'sell' : 'buy';
    const sz = new Big(request.sz ?? '0');
    const price = prices.get(market.instId)!;
    const byQuote = side === 'buy' && request.tgtCcy === 'quote_ccy';
    const share = fault?.kind === 'partial_fill' ? new Big(fault.share) : new Big(1);
    const qty = floorTo((byQuote ? sz.div(price) : sz).times(share), market.lotSz);
    if ((byQuote ? sz.div(price) : sz).lt(market.minSz)) throw new Refusal(200, '51020', 'Order amount should be greater than the min available amount.');
    // A market order's value in the quote currency is capped by maxMktAmt (1,000,000 USDT on BTC-USDT).
    if (fault?.kind === 'too_large' || (byQuote ? sz : sz.times(price)).gt(market.maxMktAmt)) throw new Refusal(200, '51202', 'Market order amount exceeds the maximum amount.');
    const base = balanceOf(account, market.baseCcy);
    const quote = balanceOf(account, market.quoteCcy);
    const cost = qty.times(price);
    if (side === 'buy' ? quote.avail.lt(byQuote ? sz : cost) : base.avail.lt(sz)) {
      throw new Refusal(200, '51008', `Order failed. Insufficient ${side === 'buy' ? market.quoteCcy : market.baseCcy} balance in account.`);
    }
    const fee = (side === 'buy' ? qty : cost).times(FEE_RATE).round(DECIMALS, Big.roundUp);
    if (side === 'buy') {
      quote.avail = quote.avail.minus(cost);
      base.avail = base.avail.plus(qty).minus(fee);
    } else {
      base.avail = base.avail.minus(qty);
      quote.avail = quote.avail.plus(cost).minus(fee);
    }
    const time = now();
    const order: OkxOrder = {
      account,
      instId: market.instId,
      ordId: String(nextOrdId++),
      clOrdId: request.clOrdId,
      side,
      sz,
      tgtCcy: request.tgtCcy ?? '',
      accFillSz: qty,
      quote: cost,
      fee,
      feeCcy: side === 'buy' ? market.baseCcy : market.quoteCcy,
      state: fault?.kind === 'partial_fill' ? 'partially_filled' : 'filled',
      cancelSource: '',
      cTime: time,
      uTime: time,
    };
    orders.push(order);
    fills.push({ instId: order.instId, tradeId: String(nextTradeId++), ordId: order.ordId, clOrdId: order.clOrdId, fillPx: price, fillSz: qty, side, fee, feeCcy: order.feeCcy, ts: time });
    return { clOrdId: order.clOrdId, ordId: order.ordId, sCode: '0', sMsg: 'Order placed', tag: '', ts: String(time) };
  };

  /**
   * The user cancels an order (by ordId or clOrdId): what it filled stays filled, its rest is cancelled. A market
   * order holds nothing frozen here, so no balance moves. An order already done, or unknown, is refused per order
   * (sCode 51400-51402), as OKX answers.
   */
  const cancel = (account: OkxAccount, request: Record<string, string>) => {
    if (!instrument(request.instId ?? null)) throw new Refusal(200, '51001', 'Instrument ID does not exist.');
    if (!request.ordId && !request.clOrdId) throw new Refusal(200, '51003', 'Either client order ID or order ID is required.');
    const order = orders.find((candidate) => candidate.account === account && candidate.instId === request.instId && (request.ordId ? candidate.ordId === request.ordId : candidate.clOrdId === request.clOrdId));
    const time = now();
    const answer = recorded.orderCanceled.body;
    const entry = { ...answer.data[0]!, clOrdId: order?.clOrdId ?? request.clOrdId ?? '', ordId: order?.ordId ?? request.ordId ?? '', ts: String(time) };
    const refused = (sCode: string, sMsg: string) => ({ ...recorded.cancelRefused.body, data: [{ ...entry, sCode, sMsg }], inTime: `${time}000`, outTime: `${time}000` });
    if (!order) return refused('51400', recorded.cancelRefused.body.data[0]!.sMsg);
    if (order.state === 'canceled') return refused('51401', 'Cancellation failed as the order is already canceled.');
    if (order.state === 'filled') return refused('51402', 'Cancellation failed as the order is already completed.');
    order.state = 'canceled';
    order.cancelSource = '1';
    order.uTime = time;
    return { ...answer, data: [entry], inTime: `${time}000`, outTime: `${time}000` };
  };

  /** OKX's signature: base64 HMAC-SHA256 of timestamp + method + path with query + body, and a timestamp within 30 s. */
  const authenticate = (request: IncomingMessage, pathWithQuery: string, body: string) => {
    const header = (name: string) => request.headers[name] as string | undefined;
    const account = accounts.get(header('ok-access-key') ?? '');
    if (!account) throw new Refusal(401, '50111', 'Invalid OK-ACCESS-KEY');
    if (header('ok-access-passphrase') !== account.passphrase) throw new Refusal(401, '50105', 'Invalid OK-ACCESS-PASSPHRASE');
    const timestamp = header('ok-access-timestamp') ?? '';
    const expected = createHmac('sha256', account.secret).update(`${timestamp}${request.method}${pathWithQuery}${body}`).digest();
    const given = Buffer.from(header('ok-access-sign') ?? '', 'base64');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Refusal(401, '50113', 'Invalid Sign');
    const sent = Date.parse(timestamp);
    if (!Number.isFinite(sent)) throw new Refusal(401, '50112', 'Invalid OK-ACCESS-TIMESTAMP');
    if (Math.abs(now() - sent) > 30_000) throw new Refusal(401, '50102', 'Timestamp request expired');
    return account;
  };

  const PRIVATE = new Set(['GET /account/balance', 'GET /account/config', 'POST /trade/batch-orders', 'POST /trade/cancel-order', 'GET /trade/order', 'GET /trade/fills-history', 'GET /trade/fills', 'GET /trade/orders-pending']);

  const route = (endpoint: string, request: IncomingMessage, query: URLSearchParams, pathWithQuery: string, body: string, fault: OkxFault | undefined): unknown => {
    switch (endpoint) {
      case 'GET /public/time':
        return ok([{ ts: String(now()) }]);
      case 'GET /public/instruments':
        return ok(query.get('instType') === 'SPOT' ? instruments : []);
      case 'GET /market/ticker': {
        const instId = query.get('instId');
        if (!instrument(instId)) throw new Refusal(200, '51001', 'Instrument ID does not exist.');
        const price = prices.get(instId!)!;
        return ok([{ ...recorded.ticker.body.data[0], instId, last: price.toFixed(), bidPx: price.toFixed(), askPx: price.plus(instrument(instId)!.tickSz).toFixed(), ts: String(now()) }]);
      }
    }
    if (!PRIVATE.has(endpoint)) throw new Refusal(404, '50000', 'Not found');
    const account = authenticate(request, pathWithQuery, body);
    switch (endpoint) {
      case 'GET /account/config':
        return keyCheck.configTrade.body;
      case 'GET /account/balance': {
        const details = Object.entries(account.balances).map(([ccy, { avail, frozen }]) => ({
          ...recorded.balance.body.data[0]!.details[0],
          ccy,
          availBal: avail.toFixed(),
          cashBal: avail.plus(frozen).toFixed(),
          eq: avail.plus(frozen).toFixed(),
          frozenBal: frozen.toFixed(),
          ordFrozen: frozen.toFixed(),
          uTime: String(now()),
        }));
        return ok([{ ...recorded.balance.body.data[0], details, uTime: String(now()) }]);
      }
      case 'POST /trade/batch-orders': {
        const placed = (JSON.parse(body) as Record<string, string>[]).map((entry) => {
          try {
            return place(account, entry, fault);
          } catch (error) {
            if (!(error instanceof Refusal)) throw error;
            return { clOrdId: entry.clOrdId ?? '', ordId: '', sCode: error.code, sMsg: error.message, tag: '', ts: String(now()) };
          }
        });
        const failed = placed.filter((entry) => entry.sCode !== '0').length;
        return { code: failed === 0 ? '0' : failed === placed.length ? '1' : '2', msg: failed === 0 ? '' : 'All operations failed', data: placed, inTime: `${now()}000`, outTime: `${now()}000` };
      }
      case 'POST /trade/cancel-order':
        return cancel(account, JSON.parse(body || '{}') as Record<string, string>);
      case 'GET /trade/order': {
        const order = orders.find((candidate) => candidate.account === account && candidate.instId === query.get('instId') && (query.has('clOrdId') ? candidate.clOrdId === query.get('clOrdId') : candidate.ordId === query.get('ordId')));
        if (!order) return { code: '51603', msg: 'Order does not exist', data: [] };
        return ok([orderAnswer(order)]);
      }
      case 'GET /trade/orders-pending':
        return ok(orders.filter((order) => order.account === account && (order.state === 'live' || order.state === 'partially_filled')).map(orderAnswer));
      default: {
        const mine = new Set(orders.filter((order) => order.account === account).map((order) => order.ordId));
        return ok(fills.filter((fill) => mine.has(fill.ordId) && (!query.has('ordId') || fill.ordId === query.get('ordId')) && (!query.has('instId') || fill.instId === query.get('instId'))).map(fillAnswer));
      }
    }
  };

  const takeFault = (endpoint: string): OkxFault | undefined => {
    const queued = faults.get(endpoint)?.shift();
    if (queued) return queued;
    if (!randomFaults || randomFaults.kinds.length === 0 || random() >= randomFaults.rate) return undefined;
    const fault = randomFaults.kinds[Math.floor(random() * randomFaults.kinds.length)]!;
    // Order-only faults on an order placement; 5XX on the other requests.
    const fits = endpoint === ORDER_ENDPOINT ? fault.kind !== 'server_error' : !ORDER_ONLY.has(fault.kind);
    return fits ? fault : undefined;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://local');
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const endpoint = `${request.method} ${url.pathname.replace(/^\/api\/v5/, '')}`;
    const seen: (typeof requests)[number] = { endpoint, at: Date.now(), status: 0, apiKey: request.headers['ok-access-key'] as string | undefined };
    if (endpoint === ORDER_ENDPOINT) seen.clOrdId = (JSON.parse(body || '[]') as { clOrdId?: string }[])[0]?.clOrdId;
    else if (url.searchParams.has('clOrdId')) seen.clOrdId = url.searchParams.get('clOrdId')!;
    requests.push(seen);
    const send = (status: number, answer: unknown) => {
      seen.status = status;
      const code = (answer as { code?: string; data?: { sCode?: string }[] }).data?.[0]?.sCode ?? (answer as { code?: string }).code;
      if (code !== undefined && code !== '0') seen.code = code;
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(answer));
    };
    const fault = takeFault(endpoint);
    if (fault) {
      seen.fault = fault.kind;
      faultsMet.set(fault.kind, (faultsMet.get(fault.kind) ?? 0) + 1);
    }
    if (fault?.kind === 'rate_limit') return send(429, { code: '50011', msg: 'Too Many Requests', data: [] });
    if (fault?.kind === 'maintenance') return send(503, { code: '50001', msg: 'Service temporarily unavailable. Please try again later', data: [] });
    if (fault?.kind === 'server_error') {
      if (fault.status === 500) return send(500, { code: '50026', msg: 'System error. Try again later.', data: [] });
      // Answered by the gateway in front of OKX: its own page, not OKX's JSON.
      seen.status = fault.status;
      response.writeHead(fault.status, { 'Content-Type': 'text/html' });
      response.end(`<html><head><title>${fault.status} ${fault.status === 502 ? 'Bad Gateway' : 'Gateway Time-out'}</title></head><body></body></html>`);
      return;
    }
    let status = 200;
    let answer: unknown;
    try {
      answer = route(endpoint, request, url.searchParams, url.pathname + url.search, body, fault);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      status = error.status;
      answer = { code: error.code, msg: error.message, data: [] };
    }
    if (fault?.kind === 'drop_answer') {
      seen.status = -1;
      response.socket?.destroy();
      return;
    }
    if (fault?.kind === 'delay_answer') {
      // Until the delay is over, or until the client gives up waiting (its timeout) and closes the connection: then no answer reaches it.
      const givenUp = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), fault.ms);
        response.once('close', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
      if (givenUp || response.destroyed) {
        seen.status = -1;
        return;
      }
    }
    send(status, answer);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ code: '50026', msg: String(error), data: [] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    /** OKX's `https://www.okx.com` here. */
    origin: `http://127.0.0.1:${port}`,
    orders,
    fills,
    requests,
    addAccount(apiKey: string, secret: string, passphrase: string, balances: Record<string, string>) {
      accounts.set(apiKey, { apiKey, secret, passphrase, balances: Object.fromEntries(Object.entries(balances).map(([ccy, avail]) => [ccy, { avail: new Big(avail), frozen: new Big(0) }])) });
    },
    balance: (apiKey: string, ccy: string) => accounts.get(apiKey)!.balances[ccy]?.avail.toFixed() ?? '0',
    setPrice: (instId: string, price: string) => void prices.set(instId, new Big(price)),
    /** One step of the seeded walk: every price up to 0.5 % up or down, on the instrument's tick. */
    walk() {
      for (const [instId, price] of prices) {
        const tick = instrument(instId)!.tickSz;
        const next = floorTo(price.times(1 + (random() - 0.5) / 100), tick);
        prices.set(instId, next.gt(0) ? next : new Big(tick));
      }
    },
    /** How many requests met a fault of this kind. */
    faultsMet: (kind: OkxFault['kind']) => faultsMet.get(kind) ?? 0,
    clearFaults() {
      faults.clear();
    },
    /** Faults drawn from the seed for every request from now on (none: off). */
    randomFaults(given: OkxRandomFaults | undefined) {
      randomFaults = given;
    },
    /** Queues faults for the next requests to an endpoint, one request each. */
    fault(endpoint: OkxEndpoint, ...given: OkxFault[]) {
      faults.set(endpoint, [...(faults.get(endpoint) ?? []), ...given]);
    },
    /** How many faults queued for an endpoint no request has met yet. */
    queued: (endpoint: OkxEndpoint) => faults.get(endpoint)?.length ?? 0,
    skewClock(ms: number) {
      skewMs = ms;
    },
    count: (endpoint: OkxEndpoint) => requests.filter((request) => request.endpoint === endpoint).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export type LocalOkx = Awaited<ReturnType<typeof startLocalOkx>>;

import ccxt, { type Exchange } from 'ccxt';
import { Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import binanceRest from './fixtures/binance-orders.json';
import binanceWs from './fixtures/binance-ws.json';
import { recordedExchange } from './recordedExchange';

/**
 * A local websocket server that plays an exchange's recorded frames (Binance's
 * SUBSCRIBE answer, then whatever a test sends), and ccxt's own websocket
 * classes pointed at it.
 */

export interface Venue {
  url: string;
  /** Stream names subscribed, in order. */
  subscriptions: string[];
  sockets: Set<WebSocket>;
  send(frame: unknown): void;
  close(): Promise<void>;
}

export const startVenue = async (): Promise<Venue> => {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  const subscriptions: string[] = [];
  const sockets = new Set<WebSocket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw)) as { method: string; params: string[]; id: number };
      if (message.method === 'SUBSCRIBE') {
        subscriptions.push(...message.params);
        socket.send(JSON.stringify({ ...binanceWs.subscribed, id: message.id }));
      }
    });
  });
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`,
    subscriptions,
    sockets,
    send: (frame) => {
      for (const socket of sockets) socket.send(JSON.stringify(frame));
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.terminate();
        server.close(() => resolve());
      }),
  };
};

/** ccxt's websocket Binance with its REST calls (markets) answered from recordings and its streams pointed at the venue. */
export const binanceAt = (venue: Venue, made: Exchange[]) => (exchangeId: string, settings: Record<string, unknown>) => {
  const replay = recordedExchange();
  replay.answer(binanceRest.exchangeInfo);
  const Class = (ccxt as unknown as { pro: Record<string, new (settings: object) => Exchange> }).pro[exchangeId]!;
  const exchange = new Class({ ...settings, fetchImplementation: (replay.factory('binance', { apiKey: '', secret: '' }) as unknown as { fetchImplementation: unknown }).fetchImplementation });
  const urls = exchange.urls as unknown as { api: { ws: Record<string, string> } };
  urls.api.ws = { ...urls.api.ws, spot: venue.url };
  // The venue speaks plain ws://, which ccxt only opens through an explicit HTTP agent.
  (exchange as unknown as { httpAgent: Agent }).httpAgent = new Agent();
  made.push(exchange);
  return exchange;
};

/** Waits until `check` holds (a frame was parsed, a subscription arrived). */
export const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

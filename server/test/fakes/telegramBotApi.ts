import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server that answers as Telegram's Bot API does
 * (`POST /bot<token>/<method>`, JSON in and out), for grammY pointed at it
 * with `client.apiRoot`. The answers are shaped like the real API's recorded
 * ones, faults included: 429 with `parameters.retry_after`, 403 when the user
 * blocked the bot, 401 for a wrong token. getUpdates long-polls like the real
 * one: it holds the call until an update is queued or its timeout passes.
 */
export const BOT = {
  id: 7000000001,
  is_bot: true,
  first_name: 'Quant Trader',
  username: 'qt_notify_bot',
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
};

/** Recorded fault answers (status = error_code, as the real API answers them). */
export const FAULTS = {
  tooManyRequests: (seconds: number) => ({
    ok: false,
    error_code: 429,
    description: `Too Many Requests: retry after ${seconds}`,
    parameters: { retry_after: seconds },
  }),
  blocked: { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' },
  chatNotFound: { ok: false, error_code: 400, description: 'Bad Request: chat not found' },
  unauthorized: { ok: false, error_code: 401, description: 'Unauthorized' },
  conflict: { ok: false, error_code: 409, description: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running' },
};

export interface BotCall {
  method: string;
  body: Record<string, any>;
  /** When the call arrived (Date.now()). */
  at: number;
}

export const startFakeBotApi = async (token: string) => {
  const calls: BotCall[] = [];
  const faults: (object | 'hang')[] = [];
  const updates: object[] = [];
  const waiting = new Set<(fault?: object) => void>();
  let conflicts = 0;
  let updateId = 500_000_000;
  let messageId = 10;

  const answer = (response: ServerResponse, body: { ok: boolean; error_code?: number }) => {
    response.writeHead(body.ok ? 200 : (body.error_code ?? 500), { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.url ?? '');
      if (!match) return answer(response, { ok: false, error_code: 404, description: 'Not Found' } as never);
      if (match[1] !== token) return answer(response, FAULTS.unauthorized);
      const method = match[2]!;
      const text = Buffer.concat(chunks).toString('utf8');
      const body = (text ? JSON.parse(text) : {}) as Record<string, any>;
      calls.push({ method, body, at: Date.now() });
      switch (method) {
        case 'getMe':
          return answer(response, { ok: true, result: BOT } as never);
        case 'deleteWebhook':
          return answer(response, { ok: true, result: true, description: 'Webhook is already deleted' } as never);
        case 'getUpdates': {
          const offset = Number(body.offset ?? 0);
          const ready = () => updates.filter((update) => (update as { update_id: number }).update_id >= offset);
          const reply = () => answer(response, { ok: true, result: ready() } as never);
          // As the real API: a second poller ends the one waiting with 409 Conflict (a moment later: a
          // poller that just aborted its call to stop, then confirms with a last call, is not a second one).
          const others = [...waiting];
          if (others.length > 0) setTimeout(() => others.forEach((other) => other(FAULTS.conflict)), 20);
          if (ready().length > 0 || !body.timeout) return reply();
          const wake = (fault?: object) => {
            if (!waiting.has(wake)) return;
            clearTimeout(timer);
            waiting.delete(wake);
            if (response.writableEnded || response.destroyed) return;
            if (!fault) return reply();
            conflicts += 1;
            answer(response, fault as never);
          };
          const timer = setTimeout(() => wake(), Number(body.timeout) * 1000);
          waiting.add(wake);
          request.socket.on('close', () => {
            clearTimeout(timer);
            waiting.delete(wake);
          });
          return;
        }
        case 'sendMessage': {
          const fault = faults.shift();
          if (fault === 'hang') return;
          if (fault) return answer(response, fault as never);
          return answer(response, {
            ok: true,
            result: {
              message_id: ++messageId,
              from: { id: BOT.id, is_bot: true, first_name: BOT.first_name, username: BOT.username },
              chat: { id: Number(body.chat_id), first_name: 'Pat', username: 'pat', type: 'private' },
              date: Math.floor(Date.now() / 1000),
              text: body.text,
            },
          } as never);
        }
        default:
          return answer(response, { ok: false, error_code: 404, description: 'Not Found: method not found' } as never);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    apiRoot: `http://127.0.0.1:${port}`,
    calls,
    /** How many waiting getUpdates calls another poller ended with 409. */
    conflicts: () => conflicts,
    /** The next sendMessage answers this fault (or never answers: 'hang'). */
    fault: (next: object | 'hang') => faults.push(next),
    /** A user writes to the bot in a private chat. */
    userWrites: (chatId: number, text: string, languageCode = 'en') => {
      const entities = text.startsWith('/') ? [{ offset: 0, length: text.split(' ')[0]!.length, type: 'bot_command' }] : [];
      updates.push({
        update_id: ++updateId,
        message: {
          message_id: ++messageId,
          from: { id: chatId, is_bot: false, first_name: 'Pat', username: 'pat', language_code: languageCode },
          chat: { id: chatId, first_name: 'Pat', username: 'pat', type: 'private' },
          date: Math.floor(Date.now() / 1000),
          text,
          entities,
        },
      });
      for (const wake of [...waiting]) wake();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

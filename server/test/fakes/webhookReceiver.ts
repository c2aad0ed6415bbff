import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status it was answered with; undefined while held, or when its sender went away first. */
  answered?: number;
  /** The sender's connection closed before the answer (a killed process). */
  aborted: boolean;
}

export interface ReceiverOptions {
  /** Holds each answer this long (a slow receiver: a sender is caught in the middle of a delivery). */
  delayMs?: number;
  /** Runs before each answer (after the delay); a request whose sender is gone by then is not answered. */
  beforeAnswer?: (hook: ReceivedHook) => Promise<void> | void;
}

/**
 * A local webhook receiver: records each request and answers what the test
 * queued (status and headers), 200 when nothing is queued; a queued `hang`
 * never answers (a timeout).
 */
export const startWebhookReceiver = async (options: ReceiverOptions = {}) => {
  const received: ReceivedHook[] = [];
  const answers: ({ status: number; headers?: Record<string, string> } | 'hang')[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    const hook: ReceivedHook = { path: request.url ?? '', headers: request.headers, body: '', aborted: false };
    response.on('close', () => {
      if (!response.writableFinished) hook.aborted = true;
    });
    request.on('end', async () => {
      hook.body = Buffer.concat(chunks).toString('utf8');
      received.push(hook);
      const answer = answers.shift() ?? { status: 200 };
      if (answer === 'hang') return;
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      await options.beforeAnswer?.(hook);
      if (hook.aborted) return;
      response.writeHead(answer.status, answer.headers ?? {});
      response.end('ok');
      hook.answered = answer.status;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    answer: (next: { status: number; headers?: Record<string, string> } | 'hang') => answers.push(next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

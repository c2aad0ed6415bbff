import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A local webhook receiver: records each request and answers what the test
 * queued (status and headers), 200 when nothing is queued; a queued `hang`
 * never answers (a timeout).
 */
export const startWebhookReceiver = async () => {
  const received: ReceivedHook[] = [];
  const answers: ({ status: number; headers?: Record<string, string> } | 'hang')[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers.shift() ?? { status: 200 };
      if (answer === 'hang') return;
      response.writeHead(answer.status, answer.headers ?? {});
      response.end('ok');
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

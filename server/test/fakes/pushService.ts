import { createDecipheriv, createECDH, createHmac, randomBytes, type ECDH } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** The local push service's certificate (self-signed for 127.0.0.1; the sender is told to trust it). */
export const PUSH_SERVICE_CA = readFileSync(join(import.meta.dirname, '../fixtures/push-service.cert.pem'), 'utf8');
const KEY = readFileSync(join(import.meta.dirname, '../fixtures/push-service.key.pem'), 'utf8');

/** A browser's side of a push subscription: its ECDH key pair on P-256 and its auth secret. */
export const browserKeys = () => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, p256dh: ecdh.getPublicKey().toString('base64url'), authText: auth.toString('base64url') };
};

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/**
 * Decrypts a Web Push message body (RFC 8291 over RFC 8188 aes128gcm, one
 * record) with the browser's private key and auth secret.
 */
export const decryptPush = (body: Buffer, ecdh: ECDH, auth: Buffer): string => {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const serverPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const browserPublic = ecdh.getPublicKey();
  const shared = ecdh.computeSecret(serverPublic);
  const prkKey = hmac(auth, shared);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browserPublic, serverPublic, Buffer.from([1])]);
  const ikm = hmac(prkKey, keyInfo);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'latin1')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'latin1')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('not a last record');
  return padded.subarray(0, end).toString('utf8');
};

export interface PushDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A local push service over HTTPS: records each push and answers 201 unless a test queued another status. */
export const startPushService = async () => {
  const received: PushDelivery[] = [];
  const answers: { status: number; headers?: Record<string, string> }[] = [];
  const server = createServer({ key: KEY, cert: PUSH_SERVICE_CA }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      const answer = answers.shift() ?? { status: 201 };
      response.writeHead(answer.status, answer.headers ?? {});
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: (name: string) => `https://127.0.0.1:${port}/push/${name}`,
    received,
    answer: (next: { status: number; headers?: Record<string, string> }) => answers.push(next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

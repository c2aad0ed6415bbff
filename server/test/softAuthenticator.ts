import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software passkey authenticator for server tests: an ES256 key pair made
 * here, answering registration and assertion options the way a platform
 * authenticator does (attestation "none", user present and verified), with a
 * signature counter the test may hold back to play a clone.
 */
const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const u32 = (value: number) => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value);
  return out;
};

export interface SoftPasskey {
  credentialId: Buffer;
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

export const createSoftAuthenticator = (origin: string) => {
  const rpId = new URL(origin).hostname;
  const clientData = (type: string, challenge: string) => Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    /** A registration response to the server's creation options: a new key pair. */
    register(options: { challenge: string; user: { id: string } }): { passkey: SoftPasskey; response: Record<string, unknown> } {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const cose = new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]);
      const credentialId = randomBytes(32);
      const passkey: SoftPasskey = { credentialId, privateKey, userHandle: options.user.id, counter: 0 };
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      // Flags: user present, user verified, attested credential data.
      const authData = Buffer.concat([sha256(rpId), Buffer.from([0x45]), u32(0), Buffer.alloc(16), idLength, credentialId, Buffer.from(isoCBOR.encode(cose as never))]);
      const attestationObject = isoCBOR.encode(new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never);
      return {
        passkey,
        response: {
          id: b64url(credentialId),
          rawId: b64url(credentialId),
          type: 'public-key',
          response: { clientDataJSON: b64url(clientData('webauthn.create', options.challenge)), attestationObject: b64url(attestationObject), transports: ['internal'] },
          clientExtensionResults: {},
          authenticatorAttachment: 'platform',
        },
      };
    },

    /** An assertion of the passkey for the options' challenge; the counter grows by one unless `counter` says otherwise. */
    assert(passkey: SoftPasskey, options: { challenge: string }, counter = passkey.counter + 1): Record<string, unknown> {
      passkey.counter = counter;
      const authData = Buffer.concat([sha256(rpId), Buffer.from([0x05]), u32(counter)]);
      const clientDataJSON = clientData('webauthn.get', options.challenge);
      const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), passkey.privateKey);
      return {
        id: b64url(passkey.credentialId),
        rawId: b64url(passkey.credentialId),
        type: 'public-key',
        response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(signature), userHandle: passkey.userHandle },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
};

/** The step-up header's value for an assertion. */
export const passkeyHeader = (assertion: Record<string, unknown>) => `passkey:${Buffer.from(JSON.stringify(assertion)).toString('base64url')}`;

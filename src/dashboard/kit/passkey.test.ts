import { describe, expect, it } from 'vitest';
import { PASSKEY_HEADER_PATTERN } from '../../api/security';
import { kindsOf, passkeyFactor, passkeyOptionsOf } from './passkey';

describe('passkey factor in the browser', () => {
  it('carries an assertion as `passkey:` and base64url JSON that the header schema accepts and decodes back to the same assertion', () => {
    const assertion = { id: 'AbC-_x', type: 'public-key', response: { clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0', signature: 'MEUCIQ??>>' }, clientExtensionResults: {} };
    const factor = passkeyFactor(assertion);
    expect(factor).toMatch(new RegExp(PASSKEY_HEADER_PATTERN));
    expect(factor).not.toMatch(/[+/=]/);
    expect(JSON.parse(Buffer.from(factor.slice('passkey:'.length), 'base64url').toString())).toEqual(assertion);
  });

  it('reads the passkey options and factor kinds of a refusal 11100, and nothing from anything else', () => {
    expect(passkeyOptionsOf({ kinds: ['passkey'], passkey: { challenge: 'abc', rpId: 'localhost' } })).toEqual({ challenge: 'abc', rpId: 'localhost' });
    expect(passkeyOptionsOf({ kinds: ['totp'] })).toBeNull();
    expect(passkeyOptionsOf({ passkey: { challenge: 3 } })).toBeNull();
    expect(passkeyOptionsOf(null)).toBeNull();
    expect(kindsOf({ kinds: ['totp', 'passkey', 7] })).toEqual(['totp', 'passkey']);
    expect(kindsOf(undefined)).toEqual([]);
  });
});

import { createHash } from 'node:crypto';
import { describe, it, expect, vi } from 'vitest';
import {
  SIGNED_CALLS,
  computeSign,
  isSignedCall,
  keyFieldsOf,
  newRequestId,
  signBody,
  signedCallKey,
  signingText,
  unixSeconds,
} from './signing';
import { CATALOGUE_CODES, ErrorCode, isCatalogueCode } from './errors';

/**
 * Published test vectors of the request signature (spec section 7, design section 4):
 *
 *   sign = sha256_hex(METHOD + path + key fields in table order + uuid + timestamp + secret)
 *
 * The expected value is computed here independently with Node's own SHA-256 over
 * the documented concatenation, and additionally pinned as literal hex digests so
 * that any change of field order, separator or number format breaks this file.
 */
const UUID = '0123456789abcdef0123456789abcdef';
const TIMESTAMP = 1700000000;
const SECRET = 'test-vector-secret';

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

interface Vector {
  method: string;
  path: string;
  body: Record<string, unknown>;
  /** Values of the key fields, in the documented order. */
  keyValues: string[];
  /** The digest computed once, outside this code base, from the documented concatenation. */
  literal: string;
}

const VECTORS: Vector[] = [
  {
    method: 'POST',
    path: '/api/user/login',
    body: { email: 'alice@example.com', password: 'P@ssw0rd!' },
    keyValues: ['alice@example.com', 'P@ssw0rd!'],
    literal: '84073628058fef0e10cddad1cce5d55bf50a541340cd2c521a8ec64e32217602',
  },
  {
    method: 'POST',
    path: '/api/user/register',
    body: {
      email: 'bob@example.com',
      nickname: '小明',
      password: 'Secret#123',
      secondPassword: 'Secret#123',
      captcha: '123456',
      inviteCode: 'INV42',
      rememberMe: true,
    },
    keyValues: ['bob@example.com', '小明', 'Secret#123', 'Secret#123', '123456', 'INV42'],
    literal: '7a16f6bd76d77410731e13202c866eb9dd04b3b75c36524961775f4c98ffcf0e',
  },
  {
    method: 'POST',
    path: '/api/user/verify-code',
    body: { email: 'carol@example.com', type: 'register' },
    keyValues: ['carol@example.com', 'register'],
    literal: '052797a6467b653051cb9fb7b3ecc6befffdfcf4094e63b1d6fffa09e3578acc',
  },
  {
    method: 'POST',
    path: '/api/user/reset-password',
    body: { email: 'dave@example.com', newPassword: 'N3wPass!', captcha: '654321' },
    keyValues: ['dave@example.com', 'N3wPass!', '654321'],
    literal: 'cd0296b6b06b721c350da0a44fb6d5374936d45e52e2839af57e3d7d1aab0f31',
  },
  {
    method: 'PUT',
    path: '/api/user/refresh',
    body: { refreshToken: 'rt-abc.def.ghi' },
    keyValues: ['rt-abc.def.ghi'],
    literal: 'c8769a60d9133fb44e2ca9fc1b1116f685e10e8505c9b61ec0455c57368d9d07',
  },
];

const documented = (v: Pick<Vector, 'method' | 'path' | 'keyValues'>, uuid = UUID, ts = TIMESTAMP, secret = SECRET) =>
  sha256Hex(v.method + v.path + v.keyValues.join('') + uuid + String(ts) + secret);

describe('signing: published test vectors', () => {
  it.each(VECTORS)('$method $path matches the independent SHA-256 of the documented concatenation', (v) => {
    const sign = computeSign(v.method, v.path, v.body, UUID, TIMESTAMP, SECRET);
    expect(sign).toMatch(/^[0-9a-f]{64}$/);
    expect(sign).toBe(documented(v));
  });

  it.each(VECTORS)('$method $path matches its pinned literal digest', (v) => {
    expect(computeSign(v.method, v.path, v.body, UUID, TIMESTAMP, SECRET)).toBe(v.literal);
    // The pinned digest itself is the documented concatenation (guards the vector table).
    expect(documented(v)).toBe(v.literal);
  });

  it('signingText is the plain concatenation without separators', () => {
    const login = VECTORS[0]!;
    expect(signingText(login.method, login.path, login.body, UUID, TIMESTAMP, SECRET)).toBe(
      'POST/api/user/loginalice@example.comP@ssw0rd!' + UUID + '1700000000' + SECRET,
    );
  });

  it('upper-cases the method before hashing', () => {
    const login = VECTORS[0]!;
    expect(computeSign('post', login.path, login.body, UUID, TIMESTAMP, SECRET)).toBe(login.literal);
  });

  it('hashes UTF-8 bytes (a Chinese nickname)', () => {
    const register = VECTORS[1]!;
    const text = register.method + register.path + register.keyValues.join('') + UUID + TIMESTAMP + SECRET;
    const sign = computeSign(register.method, register.path, register.body, UUID, TIMESTAMP, SECRET);
    expect(sign).toBe(createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'));
    // Hashing UTF-16 code units or latin1 bytes instead would give another digest.
    expect(sign).not.toBe(createHash('sha256').update(Buffer.from(text, 'latin1')).digest('hex'));
    expect(sign).not.toBe(createHash('sha256').update(Buffer.from(text, 'utf16le')).digest('hex'));
  });
});

describe('signing: the table of signed calls', () => {
  it('has exactly the 13 signed calls with the documented field order', () => {
    expect(SIGNED_CALLS).toEqual({
      'POST /api/user/login': ['email', 'password'],
      'POST /api/user/register': ['email', 'nickname', 'password', 'secondPassword', 'captcha', 'inviteCode'],
      'POST /api/user/verify-code': ['email', 'type'],
      'PUT /api/user/refresh': ['refreshToken'],
      'POST /api/user/reset-password': ['email', 'newPassword', 'captcha'],
      'POST /api/user/change-password': ['oldPassword', 'newPassword'],
      'POST /api/user/change-email': ['email', 'captcha', 'password'],
      'POST /api/wallet/withdraw': ['amount', 'address', 'idempotencyKey'],
      'POST /api/wallet/transfer': ['to', 'amount', 'idempotencyKey'],
      'POST /api/wallet/exchange': ['from', 'to', 'amount', 'idempotencyKey'],
      'POST /api/wallet/points-transfer': ['to', 'amount', 'idempotencyKey'],
      'POST /api/trade/task/webhook': ['id', 'action'],
      'POST /api/trade/task/webhook/off': ['id'],
    });
    expect(Object.keys(SIGNED_CALLS)).toHaveLength(13);
  });

  it('recognises only those calls as signed', () => {
    expect(isSignedCall('POST', '/api/user/login')).toBe(true);
    expect(isSignedCall('post', '/api/user/login')).toBe(true);
    expect(isSignedCall('PUT', '/api/user/refresh')).toBe(true);
    expect(isSignedCall('POST', '/api/user/refresh')).toBe(false);
    expect(isSignedCall('POST', '/api/user/logout')).toBe(false);
    expect(isSignedCall('GET', '/api/trade/list')).toBe(false);
    expect(isSignedCall('GET', 'toString')).toBe(false);
    expect(signedCallKey('put', '/api/user/refresh')).toBe('PUT /api/user/refresh');
  });

  it('keyFieldsOf answers the table row and refuses an unsigned call', () => {
    expect(keyFieldsOf('POST', '/api/user/reset-password')).toEqual(['email', 'newPassword', 'captcha']);
    expect(() => keyFieldsOf('POST', '/api/trade/add')).toThrow(/not a signed call/);
    expect(() => computeSign('POST', '/api/trade/add', {}, UUID, TIMESTAMP, SECRET)).toThrow();
  });
});

describe('signing: what the sign covers', () => {
  const register = VECTORS[1]!;
  const base = () => computeSign(register.method, register.path, register.body, UUID, TIMESTAMP, SECRET);

  it('a missing optional inviteCode counts as the empty string', () => {
    const { inviteCode: _omit, ...withoutInvite } = register.body;
    const expected = 'def87238f7a90d170c562cb48246d6b9d9ff4c3b347ba717fb4ec4792f58e25b';
    const keyValues = [...register.keyValues.slice(0, 5), ''];
    expect(documented({ ...register, keyValues })).toBe(expected);
    expect(computeSign(register.method, register.path, withoutInvite, UUID, TIMESTAMP, SECRET)).toBe(expected);
    expect(computeSign(register.method, register.path, { ...withoutInvite, inviteCode: '' }, UUID, TIMESTAMP, SECRET)).toBe(
      expected,
    );
    expect(computeSign(register.method, register.path, { ...withoutInvite, inviteCode: null }, UUID, TIMESTAMP, SECRET)).toBe(
      expected,
    );
  });

  it.each(['email', 'nickname', 'password', 'secondPassword', 'captcha', 'inviteCode'])(
    'changing key field %s changes the sign',
    (field) => {
      const changed = { ...register.body, [field]: `${String(register.body[field])}x` };
      expect(computeSign(register.method, register.path, changed, UUID, TIMESTAMP, SECRET)).not.toBe(base());
    },
  );

  it('changing the uuid, the timestamp or the secret changes the sign', () => {
    const signs = new Set([
      base(),
      computeSign(register.method, register.path, register.body, 'f'.repeat(32), TIMESTAMP, SECRET),
      computeSign(register.method, register.path, register.body, UUID, TIMESTAMP + 1, SECRET),
      computeSign(register.method, register.path, register.body, UUID, TIMESTAMP, `${SECRET}!`),
    ]);
    expect(signs.size).toBe(4);
  });

  it('non-key fields (rememberMe, extras) do not change the sign', () => {
    expect(computeSign(register.method, register.path, { ...register.body, rememberMe: false }, UUID, TIMESTAMP, SECRET)).toBe(
      base(),
    );
    const { rememberMe: _r, ...noRemember } = register.body;
    expect(computeSign(register.method, register.path, noRemember, UUID, TIMESTAMP, SECRET)).toBe(base());
    expect(computeSign(register.method, register.path, { ...register.body, extra: 'ignored' }, UUID, TIMESTAMP, SECRET)).toBe(
      base(),
    );
  });

  it('swapping the values of two key fields changes the sign (order matters)', () => {
    const login = VECTORS[0]!;
    const swapped = { email: login.body.password, password: login.body.email };
    expect(computeSign(login.method, login.path, swapped, UUID, TIMESTAMP, SECRET)).not.toBe(login.literal);
  });
});

describe('signing: uuid, timestamp and signBody', () => {
  it('newRequestId is 32 lowercase hex characters without dashes and unique across 1000 calls', () => {
    const ids = Array.from({ length: 1000 }, () => newRequestId());
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(id).not.toContain('-');
    }
    expect(new Set(ids).size).toBe(1000);
  });

  it('unixSeconds is in whole seconds', () => {
    expect(unixSeconds(1_700_000_000_999)).toBe(1_700_000_000);
    expect(unixSeconds(0)).toBe(0);
    const before = Math.floor(Date.now() / 1000);
    const now = unixSeconds();
    const after = Math.floor(Date.now() / 1000);
    expect(Number.isInteger(now)).toBe(true);
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(after);
  });

  it('signBody adds uuid, timestamp and sign and keeps the body', () => {
    const login = VECTORS[0]!;
    const signed = signBody(login.method, login.path, login.body, SECRET, { uuid: UUID, timestamp: TIMESTAMP });
    expect(signed).toEqual({ ...login.body, uuid: UUID, timestamp: TIMESTAMP, sign: login.literal });
    // The input object is not mutated.
    expect(login.body).not.toHaveProperty('sign');
  });

  it('signBody without a given uuid/timestamp uses a fresh id and the current second', () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(new Date(1_700_000_123_456));
      const refresh = VECTORS[4]!;
      const a = signBody(refresh.method, refresh.path, refresh.body, SECRET);
      const b = signBody(refresh.method, refresh.path, refresh.body, SECRET);
      expect(a.timestamp).toBe(1_700_000_123);
      expect(a.uuid).toMatch(/^[0-9a-f]{32}$/);
      expect(a.uuid).not.toBe(b.uuid);
      expect(a.sign).toBe(documented(refresh, a.uuid, a.timestamp));
      expect(a.sign).not.toBe(b.sign);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('error catalogue', () => {
  const SPEC_CODES = [
    10000, 10001, 10002, 10003, 10004, 10005, 10006, 10007, 10008, 10100, 10101, 11000, 11001, 11002, 11003, 11004,
    11005, 11006, 11007, 13000, 13001, 13002, 14000, 14001, 15000, 15001, 15002, 16000, 16001, 20000, 20001, 20002,
    20003, 30000, 30100, 30101, 30102, 99999,
  ];

  // The spec's table lists 38 non-zero codes (10000 ... 99999); "37" in earlier notes miscounted it.
  it('CATALOGUE_CODES has exactly the codes of spec section 8 (all 38 rows)', () => {
    expect(SPEC_CODES).toHaveLength(38);
    expect(CATALOGUE_CODES).toHaveLength(38);
    expect([...CATALOGUE_CODES].sort((a, b) => a - b)).toEqual(SPEC_CODES);
    expect(new Set(CATALOGUE_CODES).size).toBe(CATALOGUE_CODES.length);
  });

  it('success (0) is not a catalogue code; unknown codes are not either', () => {
    expect(ErrorCode.SUCCESS).toBe(0);
    expect(isCatalogueCode(0)).toBe(false);
    expect(isCatalogueCode(12345)).toBe(false);
    expect(isCatalogueCode('11003')).toBe(false);
    expect(isCatalogueCode(11003)).toBe(true);
  });
});

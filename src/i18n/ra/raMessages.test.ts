import { describe, it, expect } from 'vitest';
import englishMessages from 'ra-language-english';
import zhCNMessages from './zh-CN';
import zhTWMessages from './zh-TW';

type Flat = Record<string, unknown>;

/** Flattens a nested messages object into `{ 'ra.action.save': 'Save', ... }`. */
const flatten = (value: unknown, prefix = '', out: Flat = {}): Flat => {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      flatten(child, prefix ? `${prefix}.${key}` : key, out);
    }
  } else {
    out[prefix] = value;
  }
  return out;
};

const placeholders = (message: string): Set<string> =>
  new Set(Array.from(message.matchAll(/%\{([^}]*)\}/g), (m) => m[1] ?? ''));

const PLURAL_SEPARATOR = ' |||| ';
const CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;

const english = flatten(englishMessages);
const englishKeys = Object.keys(english).sort();

const packs = [
  ['zh-CN', zhCNMessages],
  ['zh-TW', zhTWMessages],
] as const;

describe('react-admin ra.* English source', () => {
  it('is a non-trivial set of string leaves under "ra"', () => {
    expect(englishKeys.length).toBeGreaterThan(100);
    expect(englishKeys.every((key) => key.startsWith('ra.'))).toBe(true);
    expect(Object.values(english).every((v) => typeof v === 'string')).toBe(true);
  });
});

describe.each(packs)('react-admin ra.* messages (%s)', (_locale, messages) => {
  const flat = flatten(messages);
  const keys = Object.keys(flat).sort();

  it('has exactly the same keys as ra-language-english', () => {
    const missing = englishKeys.filter((key) => !(key in flat));
    const extra = keys.filter((key) => !(key in english));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  it('has a non-empty string for every leaf', () => {
    const bad = keys.filter((key) => {
      const value = flat[key];
      if (typeof value !== 'string' || value.length === 0) return true;
      // Only a blank English message (ra.boolean.null) may stay blank.
      const source = english[key];
      return value.trim() === '' && typeof source === 'string' && source.trim() !== '';
    });
    expect(bad).toEqual([]);
  });

  it('keeps every %{placeholder} of the English message', () => {
    const problems: string[] = [];
    for (const key of englishKeys) {
      const source = english[key];
      const target = flat[key];
      if (typeof source !== 'string' || typeof target !== 'string') continue;
      const kept = placeholders(target);
      for (const name of placeholders(source)) {
        if (!kept.has(name)) problems.push(`${key}: missing %{${name}}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('introduces no placeholder unknown to the English message', () => {
    const problems: string[] = [];
    for (const key of keys) {
      const source = english[key];
      const target = flat[key];
      if (typeof source !== 'string' || typeof target !== 'string') continue;
      const known = placeholders(source);
      for (const name of placeholders(target)) {
        if (!known.has(name)) problems.push(`${key}: unexpected %{${name}}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('uses the plural separator only as "singular |||| plural" on plural messages', () => {
    const problems: string[] = [];
    for (const key of keys) {
      const source = english[key];
      const target = flat[key];
      if (typeof source !== 'string' || typeof target !== 'string') continue;
      if (!target.includes('||||')) continue;
      const parts = target.split(PLURAL_SEPARATOR);
      if (!source.includes(PLURAL_SEPARATOR)) problems.push(`${key}: English message is not plural`);
      if (parts.length !== 2 || parts.some((part) => part.trim() === '' || part.includes('||||'))) {
        problems.push(`${key}: expected exactly two forms separated by "${PLURAL_SEPARATOR}"`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('is actually translated (CJK characters in at least 90% of leaves)', () => {
    const strings = keys.map((key) => flat[key]).filter((v): v is string => typeof v === 'string');
    const untranslated = keys.filter((key) => {
      const value = flat[key];
      return typeof value !== 'string' || !CJK.test(value);
    });
    const ratio = strings.filter((value) => CJK.test(value)).length / keys.length;
    expect(ratio, `leaves without CJK text: ${untranslated.join(', ')}`).toBeGreaterThanOrEqual(0.9);
  });
});

import { describe, expect, it } from 'vitest';
import type { SiteRule } from '../../shared/records';
import { isApplicableRule, matchRule, ruleOrigin, StoredSiteRule, withRule } from './site-rules';

/** A stored value as the worker loads it: the rule it means, or undefined when it is dropped. */
const migrateLegacyRule = (value: unknown) => {
  const r = StoredSiteRule.safeParse(value);
  return r.success ? r.data : undefined;
};

const rule = (
  id: string,
  origin: string,
  toolClass: SiteRule['toolClass'],
  decision: SiteRule['decision'],
): SiteRule => ({
  id,
  origin,
  toolClass,
  decision,
  createdAtMs: 0,
});

describe('site rules', () => {
  it('match by origin and class only, a deny rule winning over an allow rule for the same pair', () => {
    const rules = [
      rule('a', 'https://a.example', 'read', 'allow'),
      rule('b', 'https://a.example', 'act', 'allow'),
      rule('c', 'https://a.example', 'act', 'deny'),
    ];
    expect(matchRule(rules, 'https://a.example', 'read')?.id).toBe('a');
    expect(matchRule(rules, 'https://a.example', 'act')?.id).toBe('c');
    expect(matchRule(rules, 'https://a.example', 'navigate')).toBeUndefined();
    expect(matchRule(rules, 'https://b.example', 'read')).toBeUndefined();
    expect(matchRule(rules, 'http://a.example', 'read')).toBeUndefined();
  });

  it('replace the rule for the same origin and class and keep the others', () => {
    const rules = [rule('a', 'https://a.example', 'read', 'allow'), rule('b', 'https://a.example', 'act', 'allow')];
    const next = withRule(rules, { origin: 'https://a.example', toolClass: 'act', decision: 'deny' }, 9, () => 'n');
    expect(next).toEqual([rules[0], { ...rule('n', 'https://a.example', 'act', 'deny'), createdAtMs: 9 }]);
  });

  it('key rules by the http(s) origin of a page, and none for other pages', () => {
    expect(ruleOrigin('https://a.example/path?q#h')).toBe('https://a.example');
    expect(ruleOrigin('http://127.0.0.1:8080/x')).toBe('http://127.0.0.1:8080');
    for (const url of [undefined, '', 'chrome://settings', 'file:///tmp/a.html', 'about:blank', 'data:,x', 'nonsense'])
      expect(ruleOrigin(url), String(url)).toBeUndefined();
    expect(isApplicableRule({ origin: 'https://a.example' })).toBe(true);
    for (const origin of ['https://a.example/', 'https://a.example/x', 'file://', 'HTTPS://A.EXAMPLE', '(no site)'])
      expect(isApplicableRule({ origin }), origin).toBe(false);
  });

  it('read a rule stored per tool as the rule for its class, and drop one that named no page tool', () => {
    const old = (toolName: string) => ({
      id: 'r',
      origin: 'https://a.example',
      toolName,
      decision: 'allow',
      createdAtMs: 4,
    });
    expect(migrateLegacyRule(old('page_read'))).toEqual({
      ...rule('r', 'https://a.example', 'read', 'allow'),
      createdAtMs: 4,
    });
    expect(migrateLegacyRule({ ...old('page_screenshot'), createdAtMs: 0 })).toEqual(
      rule('r', 'https://a.example', 'read', 'allow'),
    );
    expect(migrateLegacyRule(old('bash'))).toBeUndefined();
    expect(migrateLegacyRule(old('constructor'))).toBeUndefined();
    expect(migrateLegacyRule({ ...old('page_read'), decision: 'maybe' })).toBeUndefined();
    expect(migrateLegacyRule('page_read')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { NOT_ALLOWED_YET, trustedInputMode, trustedPolicy } from './trusted-policy';

describe('the trusted-input setting', () => {
  it('asks per site by default: trusted only on sites the user allowed', () => {
    expect(trustedInputMode({}, 'https://a.example')).toEqual({ trusted: false, why: NOT_ALLOWED_YET });
    expect(trustedInputMode({ trustedSites: ['https://a.example'] }, 'https://a.example')).toEqual({ trusted: true });
    expect(trustedInputMode({ trustedSites: ['https://a.example'] }, 'https://b.example').trusted).toBe(false);
  });

  it('is never trusted when off, even on an allowed site, and always trusted when always', () => {
    const sites = { trustedSites: ['https://a.example'] };
    expect(trustedInputMode({ ...sites, trustedInput: 'off' }, 'https://a.example')).toEqual({
      trusted: false,
      why: "trusted input is off in Tether's options",
    });
    expect(trustedInputMode({ trustedInput: 'always' }, 'https://z.example')).toEqual({ trusted: true });
  });

  it('offers trusted input in the panel for a web site not allowed yet, and for nothing else', () => {
    const offers: [number, string][] = [];
    let settings = {};
    const policy = trustedPolicy(
      () => settings,
      (tabId, origin) => offers.push([tabId, origin]),
    );
    policy('https://a.example', 7);
    policy('chrome-extension://x', 7);
    settings = { trustedInput: 'off' };
    policy('https://b.example', 7);
    expect(offers).toEqual([[7, 'https://a.example']]);
  });
});

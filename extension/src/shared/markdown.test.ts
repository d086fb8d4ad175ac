import { describe, expect, it } from 'vitest';
import { markdownToHtml } from './markdown';

describe('markdownToHtml', () => {
  it('escapes raw HTML from model output, event handlers included', () => {
    const html = markdownToHtml('Look: <img src=x onerror="alert(1)"> and <script>alert(2)</script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
  });

  it('empties javascript: links and keeps https links', () => {
    const html = markdownToHtml('[click](javascript:alert(1)) and [ok](https://example.com/a)');
    expect(html).toContain('<a href="">click</a>');
    expect(html).toContain('<a href="https://example.com/a">ok</a>');
    expect(html).not.toMatch(/javascript:/i);
  });

  it('renders GitHub-flavoured tables and strikethrough', () => {
    const html = markdownToHtml('| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~');
    expect(html).toContain('<table>');
    expect(html).toContain('<del>old</del>');
  });
});

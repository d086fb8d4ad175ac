import { describe, expect, it } from 'vitest';
import { CLIENT_TOOLS, PAGE_READ_MAX_CHARS, runPageTool, type PageToolDeps } from './page-tools';

function deps(over: Partial<PageToolDeps> = {}): PageToolDeps & { asked: number[] } {
  const asked: number[] = [];
  return {
    asked,
    readPage: async (_tab, maxChars) => {
      asked.push(maxChars);
      return {
        url: 'https://a.example/x',
        title: 'A page',
        selection: 'picked words',
        text: 'Body text.',
        truncated: true,
      };
    },
    listTabs: async () => [{ id: 1, title: 'A page', url: 'https://a.example/x', active: true }],
    capture: async () => 'data:image/png;base64,iVBORw0KGgo=',
    ...over,
  };
}

describe('runPageTool', () => {
  it('declares the three page tools with input schemas', () => {
    expect(CLIENT_TOOLS.map((t) => t.name)).toEqual(['page_read', 'tabs_list', 'page_screenshot']);
    for (const t of CLIENT_TOOLS) expect(t.inputSchema.type).toBe('object');
  });

  it('returns the page as text with its URL, title and selection, and says when it was cut', async () => {
    const d = deps();
    const r = await runPageTool('page_read', {}, 1, d);
    expect(r.success).toBe(true);
    const text = r.content[0]?.type === 'text' ? r.content[0].text : '';
    expect(text).toContain('URL: https://a.example/x');
    expect(text).toContain('Title: A page');
    expect(text).toContain('Selected text: picked words');
    expect(text).toContain('Body text.');
    expect(text).toContain('cut at the size limit');
  });

  it('caps the requested size', async () => {
    const d = deps();
    await runPageTool('page_read', { maxChars: 10 ** 9 }, 1, d);
    await runPageTool('page_read', { maxChars: 5 }, 1, d);
    expect(d.asked).toEqual([PAGE_READ_MAX_CHARS, 1000]);
  });

  it('returns a screenshot as PNG image content without the data URL prefix', async () => {
    const r = await runPageTool('page_screenshot', {}, 1, deps());
    expect(r.content).toEqual([{ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }]);
  });

  it('reports a failure as a tool result the model can read', async () => {
    const r = await runPageTool(
      'page_screenshot',
      {},
      1,
      deps({ capture: async () => Promise.reject(new Error('The tab is not visible')) }),
    );
    expect(r).toEqual({
      success: false,
      content: [{ type: 'text', text: 'page_screenshot failed: The tab is not visible' }],
    });
    expect((await runPageTool('rm_rf', {}, 1, deps())).success).toBe(false);
  });
});

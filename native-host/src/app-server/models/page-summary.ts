/** The scripted model's extractive summary of what a `page_read` client tool returned. */

interface PageFacts {
  title: string;
  url?: string;
  body: string;
}

/**
 * Summarises a page in a few sentences naming its title. `result` is the tool's content array; its text may be JSON
 * (`{title, url?, text|content|excerpt}`) or plain text (a `Title:` line, or the first line, names the page).
 */
export function summarisePage(result: unknown, fallbackText: string): string {
  const facts = pageFacts(textOf(result) ?? fallbackText);
  const sentences =
    facts.body
      .replace(/\s+/g, ' ')
      .trim()
      .match(/[^.!?]+[.!?]+(\s|$)|[^.!?]+$/g) ?? [];
  let summary = '';
  for (const s of sentences) {
    if (summary.length > 0 && summary.length + s.length > 400) break;
    summary += s;
    if (summary.length >= 160) break;
  }
  summary = summary.trim();
  if (summary.length > 400) summary = `${summary.slice(0, 397)}...`;
  const where = facts.url ? ` (${facts.url})` : '';
  return summary === ''
    ? `The page "${facts.title}"${where} has no readable text.`
    : `The page "${facts.title}"${where} says: ${summary}`;
}

function textOf(result: unknown): string | undefined {
  if (!Array.isArray(result)) return typeof result === 'string' ? result : undefined;
  const texts = result
    .map((c: unknown) =>
      c && typeof c === 'object' && (c as { type?: unknown }).type === 'text'
        ? (c as { text?: unknown }).text
        : undefined,
    )
    .filter((t): t is string => typeof t === 'string');
  return texts.length > 0 ? texts.join('\n') : undefined;
}

function pageFacts(text: string): PageFacts {
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    if (json && typeof json === 'object') {
      const body = [json.text, json.content, json.textContent, json.excerpt].find((v) => typeof v === 'string') as
        | string
        | undefined;
      return {
        title: typeof json.title === 'string' && json.title.trim() !== '' ? json.title.trim() : 'Untitled page',
        url: typeof json.url === 'string' ? json.url : undefined,
        body: body ?? '',
      };
    }
  } catch {
    // Plain text: handled below.
  }
  const lines = text.split('\n');
  const titleLine = lines.findIndex((l) => /^\s*title\s*:/i.test(l));
  if (titleLine >= 0) {
    const urlLine = lines.find((l) => /^\s*url\s*:/i.test(l));
    const body = lines.filter((l, i) => i !== titleLine && !/^\s*url\s*:/i.test(l)).join('\n');
    return {
      title: lines[titleLine]!.replace(/^\s*title\s*:\s*/i, '').trim() || 'Untitled page',
      url: urlLine?.replace(/^\s*url\s*:\s*/i, '').trim(),
      body,
    };
  }
  const first = lines.findIndex((l) => l.trim() !== '');
  return {
    title: first >= 0 ? lines[first]!.trim().slice(0, 120) : 'Untitled page',
    body: lines.slice(first + 1).join('\n'),
  };
}

/**
 * Fixture pages for trusted input (fixture-site.ts serves them with the others): controls that tell a user's input
 * from a script's (`event.isTrusted`), in the page and in a cross-origin frame placed off the page's top-left, a file
 * input the page reads back, a drop zone for files and an HTML5 drag between two boxes.
 */
import type { PageContext } from './fixture-pages';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}

/** Status lines say whether each event was trusted, so a test reads the page's own judgement. */
function trusted(ctx: PageContext): string {
  return page(
    'Trusted input',
    `<main><h1>Trusted input</h1>
<p><button type="button" id="real">Only real clicks</button></p>
<p id="real-status">not clicked</p>
<p><label>Nickname <input id="nick"></label></p>
<p id="key-status">no keys</p>
<p><label>Attachment <input type="file" id="file" multiple></label></p>
<p id="file-status">no file</p>
<div id="drop" tabindex="0" role="button" aria-label="Drop files here" style="width:240px;height:60px;border:2px dashed #888">Drop files here</div>
<p id="drop-status">nothing dropped</p>
<div style="display:flex;gap:40px;margin:20px 0">
<div id="card" draggable="true" tabindex="0" role="button" aria-label="Card A" style="width:100px;height:40px;background:#ddf">Card A</div>
<div id="done" tabindex="0" role="button" aria-label="Done column" style="width:160px;height:80px;border:2px solid #888">Done column</div>
</div>
<p id="drag-status">Card A in To do</p>
<div style="margin:30px 0 0 60px"><iframe title="Partner" src="${ctx.other}/trusted-frame" style="width:320px;height:120px;border:6px solid #ccc;padding:4px"></iframe></div>
</main><script>
const $ = (id) => document.getElementById(id);
let clicks = 0;
$('real').addEventListener('click', (e) => {
  clicks++;
  $('real-status').textContent = (e.isTrusted ? 'trusted click #' : 'ignored untrusted click #') + clicks;
});
const keys = [];
$('nick').addEventListener('keydown', (e) => {
  keys.push((e.isTrusted ? 'T' : 'U') + e.keyCode);
  $('key-status').textContent = keys.join(' ');
});
$('file').addEventListener('change', async (e) => {
  const files = Array.from($('file').files);
  const texts = await Promise.all(files.map(async (f) => f.name + ' (' + f.size + ' bytes): ' + (await f.text())));
  $('file-status').textContent = (e.isTrusted ? 'trusted: ' : 'untrusted: ') + texts.join('; ');
});
$('drop').addEventListener('dragover', (e) => e.preventDefault());
$('drop').addEventListener('drop', async (e) => {
  e.preventDefault();
  const files = Array.from(e.dataTransfer.files);
  const texts = await Promise.all(files.map(async (f) => f.name + ': ' + (await f.text())));
  $('drop-status').textContent = 'dropped ' + texts.join('; ');
});
$('card').addEventListener('dragstart', (e) => e.dataTransfer.setData('text/plain', 'card-a'));
$('done').addEventListener('dragover', (e) => e.preventDefault());
$('done').addEventListener('drop', (e) => {
  e.preventDefault();
  if (e.dataTransfer.getData('text/plain') === 'card-a') $('drag-status').textContent = 'Card A in Done';
});
</script>`,
  );
}

const trustedFrame = page(
  'Partner',
  `<p style="margin:30px 0 0 90px"><button type="button" id="framed">Framed real click</button></p><p id="framed-status">not clicked</p><script>
document.getElementById('framed').addEventListener('click', (e) => {
  document.getElementById('framed-status').textContent = e.isTrusted ? 'trusted click' : 'ignored untrusted click';
});
</script>`,
);

/** The trusted-input pages by path. */
export const TRUSTED_PAGES = { '/trusted': trusted, '/trusted-frame': trustedFrame };

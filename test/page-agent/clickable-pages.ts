/**
 * Plain-HTML pages with the shapes real widgets have but no control role does: a word-link span, anchors without
 * href, calendar days in divs, grid cells (one editable on double-click), a code editor's 1x1 px textarea, pointer-cursor divs and cards; and long
 * field values. Every element a test clicks records the click in `window.clicks` (listeners added with
 * addEventListener, which an isolated-world agent cannot see).
 */

const LONG_BIO = Array.from(
  { length: 12 },
  (_, i) => `Sentence ${i + 1} of the biography tells where she worked and what she wrote.`,
).join(' ');

/** The biography a textarea of clickablesPage() holds (about 900 characters): read whole only through page_read. */
export const LONG_VALUE = `${LONG_BIO}\nThe last line ends here.`;

/** A page of clickable shapes; `window.clicks` lists the ids of elements clicked, in order. */
export function clickablesPage(): string {
  const days = [28, 29, 30, ...Array.from({ length: 10 }, (_, i) => i + 1)]
    .map((d, i) => `<div class="day" id="day-${i < 3 ? 'prev-' : ''}${d}">${d}</div>`)
    .join('');
  return `<!doctype html><html><head><title>Clickables</title><style>
.day { cursor: pointer; display: inline-block; width: 2em; }
.pointer { cursor: pointer; }
.off { cursor: not-allowed; color: #999; }
.sortable li { cursor: grab; }
.card { cursor: pointer; border: 1px solid #999; padding: 4px; }
.sr-only { position: absolute; width: 1px; height: 1px; padding: 0; border: 0; overflow: hidden; clip: rect(0 0 0 0); }
.editor { position: relative; width: 400px; height: 60px; font-family: monospace; }
.inputarea { position: absolute; top: 0; left: 0; width: 1px; height: 1px; overflow: hidden; opacity: 0; padding: 0; border: 0; resize: none; }
</style></head><body><main>
<h1>Shapes</h1>
<p>By signing up you accept the <span id="terms" onclick="void 0">terms of use</span> and the privacy notice.</p>
<p>Please read the <span id="policy">cookie policy</span> before you go on.</p>
<div class="picker" aria-label="Calendar"><a id="prev">Prev</a> <a id="next">Next</a>
<span class="css-1x2y3z next-month pointer" id="arrow"><svg width="12" height="12"><path d="M2 2 L10 6 L2 10"/></svg></span>
<div class="month">December 2026</div>
<div class="days">${days}</div></div>
<div class="inline-days">${[14, 15, 16, 17, 18].map((d) => `<span class="day" id="inline-${d}">${d}</span>`).join('')}<span class="off">19</span><span class="off">20</span></div>
<div class="pointer" id="fancy"><span>Fancy</span> <span>action</span></div>
<div class="pointer" id="wrapper"><button id="wrapped">Wrapped</button></div>
<div tabindex="0" id="focusable">Focus target</div>
<div role="grid" aria-label="People">
  <div role="row"><div role="columnheader">Name</div><div role="columnheader">Age</div></div>
  <div role="row"><div role="gridcell" id="cell-ada">Ada</div><div role="gridcell" id="cell-36">36</div></div>
</div>
<div class="editor"><textarea class="inputarea" id="code" aria-label="Code editor" autocorrect="off"></textarea>
<div class="lines">const answer = 42;</div></div>
<div class="card" id="card"><h3>Lighthouse tour</h3><p>${'A walk along the cliffs to the old lighthouse, with a guide who knows its history. '.repeat(3)}</p><button id="book">Book</button></div>
<ul class="sortable" aria-label="Stops"><li id="stop-a">Harbour</li><li id="stop-b">Lighthouse</li><li id="stop-c">Dunes</li></ul>
<div draggable="true" id="tile">Photo tile</div>
<label>Bio <textarea id="bio" rows="3">${LONG_VALUE}</textarea></label>
<label>Title <input id="title" value="${'Long title '.repeat(12).trim()}"></label>
<label>Secret <input id="secret" type="password" value="hunter2-secret"></label>
<div class="day" style="display:none" id="hidden-day">31</div>
<div class="sr-only pointer" id="sr-pointer">Screen reader only action</div>
<textarea class="sr-only" tabindex="-1" id="clipboard-helper" aria-label="Clipboard helper"></textarea>
<input id="honeypot" aria-label="Website" style="position:absolute;left:-9999px">
</main>
<script>
window.clicks = [];
for (const el of document.querySelectorAll('[id]')) {
  el.addEventListener('click', () => window.clicks.push(el.id));
  el.addEventListener('dblclick', () => window.clicks.push('dbl:' + el.id));
}
// The Age cell edits as a data grid's cells do: a double-click opens an input holding its value, Enter commits it.
const age = document.getElementById('cell-36');
age.addEventListener('dblclick', () => {
  if (age.querySelector('input')) return;
  const input = document.createElement('input');
  input.value = age.textContent;
  age.replaceChildren(input);
  input.focus();
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter') age.textContent = input.value; });
});
</script></body></html>`;
}

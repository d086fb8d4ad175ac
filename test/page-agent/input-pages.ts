/** Fixture pages for the input tests (pointing, editing, drag and upload), shared by the Chromium and Firefox runs. */

/** Tabs whose script listens on the `<a>` inside each `li role=tab`, a button under a fixed cookie banner, a
 * checkbox drawn by its label, a framed page and a button far below the fold. */
export const POINTING_PAGE = `<!doctype html><html><head><title>Pointing</title><style>
  body { margin: 0; font: 16px sans-serif; }
  li[role=tab] { display: inline-block; padding: 2px; }
  li[role=tab] a { display: inline-block; padding: 10px 30px; }
  #banner { position: fixed; left: 0; right: 0; top: 150px; height: 300px; background: #eee; }
  #banner p { margin: 0; }
  .fake input { position: absolute; opacity: 0; width: 0; height: 0; margin: 0; }
  .fake span { display: inline-block; width: 20px; height: 20px; border: 1px solid; }
</style></head><body>
<ul role="tablist"><li role="tab" id="t1" aria-selected="true"><a id="a1">One</a></li><li role="tab" id="t2" aria-selected="false"><a id="a2">Two</a></li></ul>
<p id="shown">One</p>
<label class="fake"><input type="checkbox" id="terms"><span></span> Accept terms</label>
<iframe id="frame" title="Framed" style="border: 5px solid; padding: 7px; width: 300px; height: 100px" srcdoc="<p>inside</p>"></iframe>
<div style="height: 2000px"></div>
<button id="buy" onclick="window.bought = true">Buy</button>
<div style="height: 2000px"></div>
<div id="banner" role="dialog" aria-label="We use cookies"><p>We use cookies</p><button onclick="document.getElementById('banner').remove()">Accept</button></div>
<script>
  for (const a of document.querySelectorAll('li[role=tab] a')) a.addEventListener('click', () => {
    for (const li of document.querySelectorAll('li[role=tab]')) li.setAttribute('aria-selected', String(li.contains(a)));
    document.getElementById('shown').textContent = a.textContent;
  });
</script></body></html>`;

/** An input, a textarea and an editor, with every key event logged as `type key code keyCode which location`. */
export const EDITING_PAGE = `<!doctype html><html><head><title>Editing</title></head><body>
<p>Intro text outside the editor.</p>
<label>Title <input id="title" value="hello brave world"></label>
<label>Body <textarea id="body">first line
ab
third line</textarea></label>
<div id="editor" contenteditable="true" role="textbox" aria-label="Notes"><p>alpha beta gamma</p><p>second para</p></div>
<script>
  window.keys = [];
  window.pastes = [];
  for (const type of ['keydown', 'keypress', 'keyup']) document.addEventListener(type, (e) =>
    window.keys.push([e.type, e.key, e.code, e.keyCode, e.which, e.location, e.charCode].join(' ')), true);
  document.addEventListener('paste', (e) => window.pastes.push(e.clipboardData.getData('text/plain')));
</script></body></html>`;

/**
 * An editor that, as ProseMirror does, takes a collapsed caret at its start within 200 ms of focus for the browser's
 * reset on focus (Firefox puts the caret there) and puts its own caret back: the one it last saw, the end at first.
 */
export const GUARDED_EDITOR_PAGE = `<!doctype html><html><head><title>Guarded editor</title></head><body>
<div id="guarded" contenteditable="true" role="textbox" aria-label="Tide notes"><p>Tides turn twice daily.</p></div>
<script>
  const editor = document.getElementById('guarded');
  const text = editor.firstChild.firstChild;
  let focusedAt = 0;
  let own = [text, text.length];
  const atStart = (node, offset) => {
    const before = document.createRange();
    before.setStart(editor, 0);
    before.setEnd(node, offset);
    return before.toString() === '';
  };
  editor.addEventListener('focus', () => {
    focusedAt = Date.now();
    getSelection().collapse(own[0], own[1]);
  });
  document.addEventListener('selectionchange', () => {
    const s = getSelection();
    if (!editor.contains(s.focusNode)) return;
    if (s.isCollapsed && Date.now() - focusedAt < 200 && atStart(s.focusNode, s.focusOffset)) {
      s.collapse(own[0], own[1]);
      return;
    }
    own = [s.focusNode, s.focusOffset];
  });
</script></body></html>`;

/** Two sortable lists (HTML5 and pointer-driven), a board that records where things land, and upload targets. */
export const TRANSFER_PAGE = `<!doctype html><html><head><title>Transfer</title><style>
  li { padding: 8px; margin: 2px; border: 1px solid; list-style: none; width: 200px; }
  #board { width: 300px; height: 200px; border: 1px solid; position: relative; }
  #zone { width: 300px; height: 80px; border: 2px dashed; }
  .picker input { display: none; }
</style></head><body>
<ul id="native" aria-label="Native list">
  <li draggable="true" role="option" aria-label="N1">N1</li><li draggable="true" role="option" aria-label="N2">N2</li><li draggable="true" role="option" aria-label="N3">N3</li>
</ul>
<ul id="pointer" aria-label="Pointer list">
  <li role="option" aria-label="P1">P1</li><li role="option" aria-label="P2">P2</li><li role="option" aria-label="P3">P3</li>
</ul>
<div id="board" tabindex="0" aria-label="Board"><span id="chip" draggable="true" role="button" aria-label="Chip">Chip</span></div>
<label>Attachment <input type="file" id="file" multiple accept=".txt,image/*"></label>
<label class="picker" role="button" aria-label="Choose avatar"><span>Choose avatar</span><input type="file" id="avatar"></label>
<div id="zone" tabindex="0" aria-label="Drop files here">Drop files here</div>
<div id="plain" tabindex="0" aria-label="Not a zone">Not a zone</div>
<script>
  window.log = [];
  // HTML5: the dragged item's text travels in the DataTransfer and is inserted before the drop target.
  const native = document.getElementById('native');
  native.addEventListener('dragstart', (e) => e.dataTransfer.setData('text/plain', e.target.textContent));
  native.addEventListener('dragover', (e) => e.preventDefault());
  native.addEventListener('drop', (e) => {
    e.preventDefault();
    const moved = [...native.children].find((li) => li.textContent === e.dataTransfer.getData('text/plain'));
    const onto = e.target.closest('li');
    if (moved && onto && moved !== onto) native.insertBefore(moved, onto.nextSibling);
  });
  // Pointer-driven: a drag starts past 5 px; the slot is found under the pointer on each move; drop on release.
  const list = document.getElementById('pointer');
  let dragging = null, startY = 0, active = false, slot = null;
  list.addEventListener('pointerdown', (e) => { dragging = e.target.closest('li'); startY = e.clientY; active = false; });
  document.addEventListener('pointermove', (e) => {
    if (!dragging) return;
    if (!active && Math.abs(e.clientY - startY) < 5) return;
    active = true;
    dragging.style.pointerEvents = 'none';
    slot = document.elementFromPoint(e.clientX, e.clientY)?.closest('#pointer li') ?? slot;
  });
  document.addEventListener('pointerup', () => {
    if (dragging && active && slot && slot !== dragging) list.insertBefore(dragging, slot.nextSibling);
    if (dragging) dragging.style.pointerEvents = '';
    dragging = null;
  });
  const board = document.getElementById('board');
  board.addEventListener('dragover', (e) => e.preventDefault());
  board.addEventListener('drop', (e) => {
    const r = board.getBoundingClientRect();
    window.log.push('dropped at ' + Math.round(e.clientX - r.left) + ',' + Math.round(e.clientY - r.top));
  });
  for (const id of ['file', 'avatar']) {
    const input = document.getElementById(id);
    input.addEventListener('input', () => window.log.push(id + ' input'));
    input.addEventListener('change', async () =>
      window.log.push(id + ' change ' + (await Promise.all([...input.files].map(async (f) => f.name + ':' + f.type + ':' + (await f.text())))).join(' ')));
  }
  const zone = document.getElementById('zone');
  zone.addEventListener('dragover', (e) => e.preventDefault());
  zone.addEventListener('drop', async (e) => {
    e.preventDefault();
    window.log.push('zone ' + (await Promise.all([...e.dataTransfer.files].map(async (f) => f.name + ':' + (await f.text())))).join(' '));
  });
</script></body></html>`;

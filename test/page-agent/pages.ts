/** Fixture pages for the page agent's action and settle tests; each records what its listeners saw in `window`. */

/**
 * An application form whose listeners log every event as `type:id` into `window.events`, with a React-like field
 * (`#react`) whose instance `value` property tracks writes the way React's does: an input event after a write
 * through that property is ignored, so only the native setter makes the change visible (`window.reactChanges`).
 */
export function formPage(): string {
  return `<!doctype html><html><head><title>Apply</title></head><body>
<form action="/apply" method="post" id="form">
  <label for="name">Full name</label><input id="name" name="name">
  <label for="react">Nickname</label><input id="react" name="nickname">
  <label for="date">Start date</label><input id="date" type="date" name="start">
  <label for="range">Volume</label><input id="range" type="range" name="volume" min="0" max="10" value="5">
  <label for="bio">Bio</label><textarea id="bio" name="bio"></textarea>
  <label for="country">Country</label><select id="country" name="country"><option value="">Choose</option><option value="fr">France</option><option value="de">Germany</option></select>
  <label for="langs">Languages</label><select id="langs" name="langs" multiple><option value="en">English</option><option value="fr">French</option><option>German</option></select>
  <label><input type="checkbox" id="agree" name="agree" value="yes"> I agree</label>
  <label><input type="radio" name="plan" value="a" id="pa"> Plan A</label>
  <label><input type="radio" name="plan" value="b" id="pb"> Plan B</label>
  <input type="file" id="file" aria-label="Resume">
  <button type="button" id="off" disabled>Unavailable</button>
  <button type="submit" id="apply">Apply</button>
</form>
<div contenteditable="true" id="editor" aria-label="Notes"></div>
<div id="menu" role="button" tabindex="0" aria-haspopup="true">Menu</div>
<button id="ghost" style="visibility:hidden">Ghost</button>
<a href="/next" id="next">Next page</a>
<div id="pane" style="height:100px;overflow:auto"><div style="height:1000px">tall</div></div>
<div style="height:2000px"></div>
<button id="bottom">Bottom</button>
<script>
  window.events = [];
  window.clicks = [];
  const types = ['pointerdown','mousedown','pointerup','mouseup','click','dblclick','contextmenu','auxclick','keydown','keypress','keyup',
    'beforeinput','input','change','mouseover','mouseenter','pointerover','pointerenter','pointermove','mousemove','focus','submit'];
  for (const type of types) document.addEventListener(type, (e) => {
    window.events.push(type + ':' + (e.target.id || e.target.localName || 'document'));
    if (type === 'click' || type === 'mousedown') window.clicks.push({ type, x: e.clientX, y: e.clientY, button: e.button, detail: e.detail, trusted: e.isTrusted });
  }, true);
  const react = document.getElementById('react');
  const native = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
  let tracked = '';
  Object.defineProperty(react, 'value', {
    configurable: true,
    get() { return native.get.call(this); },
    set(v) { tracked = String(v); native.set.call(this, v); },
  });
  window.reactChanges = [];
  react.addEventListener('input', () => { const v = native.get.call(react); if (v !== tracked) { tracked = v; window.reactChanges.push(v); } });
</script></body></html>`;
}

/** Buttons whose effects come later, open dialogs, throw, fetch, or change a region of a bigger page. */
export function effectsPage(): string {
  const rows = Array.from(
    { length: 300 },
    (_, i) =>
      `<tr id="r${i}"><td>Item ${i}</td><td class="state">Open</td><td><button class="close">Close</button></td></tr>`,
  ).join('');
  return `<!doctype html><html><head><title>Effects</title></head><body>
<main>
<button id="later">Load details</button><section id="details" aria-label="Details"></section>
<button id="fetcher">Fetch price</button><p id="price"></p>
<button id="confirm">Remove item</button><button id="prompt">Rename</button><button id="alert">Warn</button><p id="answer"></p>
<button id="thrower">Break</button>
<button id="logger">Log an error</button>
<button id="idle">Do nothing</button><button id="soon">Render soon</button><button id="framed">Render next frame</button>
<p id="rendered"></p>
<a id="leave" href="/next">Leave</a>
<p id="status">Loading…</p>
<table><tbody>${rows}</tbody></table>
</main>
<script>
  document.getElementById('later').onclick = () => setTimeout(() => {
    document.getElementById('details').innerHTML = '<h2>Details</h2><p>Ships in 2 days</p><button>Buy now</button>';
  }, 300);
  document.getElementById('fetcher').onclick = async () => {
    const text = await (await fetch('/slow-price')).text();
    document.getElementById('price').textContent = 'Price: ' + text;
  };
  const answer = document.getElementById('answer');
  document.getElementById('confirm').onclick = () => { answer.textContent = confirm('Remove this item?') ? 'removed' : 'kept'; };
  document.getElementById('prompt').onclick = () => { answer.textContent = 'name=' + prompt('New name?', 'old'); };
  document.getElementById('alert').onclick = () => { alert('Careful'); answer.textContent = 'warned'; };
  document.getElementById('thrower').onclick = () => { setTimeout(() => { throw new Error('boom in handler'); }, 10); };
  document.getElementById('logger').onclick = () => { console.error('Payment failed:', 402); };
  const rendered = document.getElementById('rendered');
  document.getElementById('soon').onclick = () => { setTimeout(() => { rendered.textContent = 'Rendered soon'; }, 80); };
  document.getElementById('framed').onclick = () => {
    requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => { rendered.textContent = 'Rendered in a frame'; })));
  };
  for (const button of document.querySelectorAll('.close')) button.onclick = () => {
    button.closest('tr').querySelector('.state').textContent = 'Closed';
  };
</script></body></html>`;
}

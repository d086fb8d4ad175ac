/** Radix UI's DropdownMenu in React 19: the menu opens on pointerdown (or Enter/Space) and an item commits on select. */
import * as Menu from '@radix-ui/react-dropdown-menu';
import { createElement as h, useState } from 'react';
import { createRoot } from 'react-dom/client';

const state = { chosen: '' };
(window as unknown as { widgetState: () => object }).widgetState = () => ({ ...state });

function App() {
  const [chosen, setChosen] = useState('');
  const item = (label: string) =>
    h(
      Menu.Item,
      {
        key: label,
        onSelect: () => {
          state.chosen = label;
          setChosen(label);
        },
      },
      label,
    );
  return h(
    'div',
    null,
    h(
      Menu.Root,
      null,
      h(Menu.Trigger, null, 'Actions'),
      h(Menu.Portal, null, h(Menu.Content, { sideOffset: 4 }, item('Duplicate'), item('Archive'), item('Share'))),
    ),
    h('p', null, chosen ? `Done: ${chosen}` : 'Nothing chosen yet.'),
  );
}

createRoot(document.getElementById('root')!).render(h(App));

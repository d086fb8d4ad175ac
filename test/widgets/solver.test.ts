/** The solver's reading of snapshots: it finds a ref by role and name as a model would, in either tool's format. */
import { describe, expect, it } from 'vitest';
import { findRef } from './solver';

const PLAYWRIGHT = [
  '- generic [active] [ref=e1]:',
  '  - heading "Volume" [level=2] [ref=e4]',
  '  - generic "Volume" [ref=e6] [cursor=pointer]',
  '  - tab [ref=f1e26]:',
  '    - link "Shipping" [ref=f1e27] [cursor=pointer]:',
  '      - /url: "#shipping"',
  '  - generic [ref=e45] [cursor=pointer]: "21"',
  '  - paragraph [ref=e3]: Read the glossary entry.',
].join('\n');

const TETHER = [
  'Page: http://127.0.0.1:1/datepicker',
  '- heading "Volume" [level=2]',
  '- clickable "Volume" [ref=e4]',
  '- tab "Shipping" [collapsed] [ref=e9]',
  '  - link "Shipping" [ref=e10] /url: /jquery-ui#shipping',
  '- table:',
  '  - row: "13" [ref=e20] | "14" [ref=e21] | "15" [ref=e22]',
  '  - row: North Pier | "Oslo" [ref=e30] | 0.3',
  '  - row: Harbour Gate [ref=e40] | Aberdeen [ref=e41] | 3.7 [ref=e42]',
  '  - row: checkbox [ref=e50] | User 1 | "Edit" [ref=e51] "Delete" [ref=e52]',
  '  - row: Old Lock [ref=e60] | textbox [active] [ref=e61]: Hamburg | 3.6 [ref=e62]',
  '  - row: textbox "Qty" [ref=e70]: 4 | Ropes',
].join('\n');

describe('findRef', () => {
  it('takes the first line whose role and name match, skipping lines without a ref', () => {
    expect(findRef(PLAYWRIGHT, { role: '(?!heading$)[\\w-]*', name: '^Volume$' })).toBe('e6');
    expect(findRef(TETHER, { role: '(?!heading$)[\\w-]*', name: '^Volume$' })).toBe('e4');
    expect(findRef(PLAYWRIGHT, { role: 'tab|link', name: '^Shipping$' })).toBe('f1e27');
    expect(findRef(TETHER, { role: 'tab|link', name: '^Shipping$' })).toBe('e9');
  });

  it("matches an unnamed line by its text, and never a container's ref for its text", () => {
    expect(findRef(PLAYWRIGHT, { name: '^21$' })).toBe('e45');
    expect(findRef(PLAYWRIGHT, { name: '^glossary$' })).toBeUndefined();
  });

  it('finds elements written inline in a row, as cells', () => {
    expect(findRef(TETHER, { role: '(?!heading$)[\\w-]*', name: '^14$' })).toBe('e21');
    expect(findRef(TETHER, { role: 'gridcell|cell', name: '^Oslo$' })).toBe('e30');
    expect(findRef(TETHER, { role: 'link', name: '^14$' })).toBeUndefined();
    // Grid cells are written unquoted, as the page agent writes a row's clickable cells.
    expect(findRef(TETHER, { role: 'gridcell|cell', name: '^Aberdeen$' })).toBe('e41');
    expect(findRef(TETHER, { role: 'cell', name: '^3.7$' })).toBe('e42');
    // Several controls in one cell are each their own item.
    expect(findRef(TETHER, { role: 'cell', name: '^Delete$' })).toBe('e52');
  });

  it('reads a control written with its role word in a row as that control, its value as its text', () => {
    // The editor a grid opens in a cell on double-click: unnamed, its value the cell's old text.
    expect(findRef(TETHER, { role: 'textbox', name: '' })).toBe('e61');
    expect(findRef(TETHER, { role: 'textbox', name: '^Hamburg$' })).toBe('e61');
    expect(findRef(TETHER, { role: 'textbox', name: '^Qty$' })).toBe('e70');
    expect(findRef(TETHER, { role: 'checkbox', name: '' })).toBe('e50');
    expect(findRef(TETHER, { role: 'cell', name: '^Hamburg$' })).toBeUndefined();
  });
});

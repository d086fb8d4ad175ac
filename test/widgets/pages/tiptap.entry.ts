/** TipTap 3 (ProseMirror) with its starter kit: a rich-text editor whose content is ProseMirror's own document. */
import { Editor } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';

const editor = new Editor({
  element: document.getElementById('editor')!,
  extensions: [StarterKit],
  content: '<p>Tides turn twice daily.</p>',
  editorProps: { attributes: { 'aria-label': 'Notes', role: 'textbox', 'aria-multiline': 'true' } },
});
document.getElementById('bold')!.addEventListener('click', () => editor.chain().focus().toggleBold().run());
(window as unknown as { widgetState: () => object }).widgetState = () => ({
  html: editor.getHTML(),
  selection: editor.state.doc.textBetween(editor.state.selection.from, editor.state.selection.to),
});

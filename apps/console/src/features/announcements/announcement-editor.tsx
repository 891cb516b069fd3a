import '@mantine/tiptap/styles.css';
import { Input } from '@mantine/core';
import { DEFAULT_LABELS, Link, RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useTranslation } from 'react-i18next';

/**
 * The announcement body's editor: Mantine's Tiptap editor (ProseMirror underneath), imported only
 * by the compose page, so its code and styles load with that page alone. Its toolbar offers what
 * the server keeps (headings, emphasis, lists, quotes, links); the server sanitizes it anyway.
 */
export function AnnouncementEditor({
  initialHtml,
  onChange,
  error,
  label,
}: {
  initialHtml: string;
  onChange: (html: string) => void;
  error: string | undefined;
  label: string;
}) {
  const { t } = useTranslation('notifications');
  const editor = useEditor({
    extensions: [
      StarterKit.configure({ link: false, code: false, codeBlock: false, horizontalRule: false }),
      Link.configure({ openOnClick: false, protocols: ['http', 'https', 'mailto', 'tel'] }),
    ],
    content: initialHtml,
    editorProps: { attributes: { 'aria-label': label, 'data-testid': 'announcement-body' } },
    onUpdate: ({ editor: current }) => {
      onChange(current.isEmpty ? '' : current.getHTML());
    },
  });
  const labels = {
    ...DEFAULT_LABELS,
    boldControlLabel: t('announcements.editor.bold'),
    italicControlLabel: t('announcements.editor.italic'),
    underlineControlLabel: t('announcements.editor.underline'),
    strikeControlLabel: t('announcements.editor.strike'),
    h2ControlLabel: t('announcements.editor.heading'),
    h3ControlLabel: t('announcements.editor.subheading'),
    bulletListControlLabel: t('announcements.editor.bulletList'),
    orderedListControlLabel: t('announcements.editor.orderedList'),
    blockquoteControlLabel: t('announcements.editor.quote'),
    linkControlLabel: t('announcements.editor.link'),
    unlinkControlLabel: t('announcements.editor.unlink'),
    undoControlLabel: t('announcements.editor.undo'),
    redoControlLabel: t('announcements.editor.redo'),
    linkEditorInputLabel: t('announcements.editor.linkAddress'),
    linkEditorInputPlaceholder: 'https://example.org',
    linkEditorExternalLink: t('announcements.editor.newTab'),
    linkEditorInternalLink: t('announcements.editor.sameTab'),
    linkEditorSave: t('announcements.editor.save'),
  };
  return (
    <Input.Wrapper label={label} required error={error}>
      <RichTextEditor editor={editor} labels={labels} mt={4}>
        <RichTextEditor.Toolbar>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.Underline />
            <RichTextEditor.Strikethrough />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.H2 />
            <RichTextEditor.H3 />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.BulletList />
            <RichTextEditor.OrderedList />
            <RichTextEditor.Blockquote />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Link />
            <RichTextEditor.Unlink />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Undo />
            <RichTextEditor.Redo />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content mih={200} />
      </RichTextEditor>
    </Input.Wrapper>
  );
}

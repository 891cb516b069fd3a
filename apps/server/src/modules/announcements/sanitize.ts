import sanitizeHtml from 'sanitize-html';

/**
 * The announcement body's allow-list: paragraphs and headings, basic emphasis, lists, quotes and
 * links with safe schemes only (no images, styles, classes or event handlers). Links open in a new
 * tab without access to the opener. Anything else is dropped; the content of script and style is
 * dropped with its tag.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'h2', 'h3', 'strong', 'b', 'em', 'i', 'u', 's', 'ul', 'ol', 'li', 'blockquote', 'code', 'pre', 'a', 'hr'],
  allowedAttributes: { a: ['href', 'target', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attributes) => ({
      tagName,
      attribs: { ...(attributes.href === undefined ? {} : { href: attributes.href }), target: '_blank', rel: 'noopener noreferrer' },
    }),
  },
};

/** The body as it is stored and shown: only the allow-list above survives. */
export function sanitizeAnnouncementHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/** The body's text (for e-mail and to check that something readable is left). */
export function announcementText(html: string): string {
  return sanitizeHtml(html.replace(/<\/(p|li|h2|h3|blockquote|pre)>|<br\s*\/?>/gi, '$&\n'), { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

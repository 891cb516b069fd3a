import { Typography } from '@mantine/core';

/**
 * An announcement's body. The HTML shown is the server's sanitized copy (allow-list: headings,
 * emphasis, lists, quotes, links with safe schemes); the compose preview shows the editor's own
 * output, which its schema limits to the same elements.
 */
export function AnnouncementBody({ html }: { html: string }) {
  return (
    <Typography>
      <div data-testid="announcement-html" dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}

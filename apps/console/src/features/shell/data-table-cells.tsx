import type { ReactNode } from 'react';
import { Text } from '@mantine/core';

/** A cell of two lines: the row's name in bold and, dimmed under it, a detail (contact, code). */
export function TwoLineCell({ title, detail }: { title: ReactNode; detail: ReactNode }) {
  return (
    <>
      <Text fz="sm" fw={600}>
        {title}
      </Text>
      <Text fz="xs" c="dimmed">
        {detail}
      </Text>
    </>
  );
}

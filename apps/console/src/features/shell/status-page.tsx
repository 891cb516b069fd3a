import type { ReactNode } from 'react';
import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router';

/** The common frame of the 404, no-permission and similar pages: code, title, text, way out. */
export function StatusPage({
  code,
  title,
  description,
  actionLabel,
  actionTo,
  icon,
}: {
  code?: string;
  title: string;
  description: string;
  actionLabel: string;
  actionTo: string;
  icon?: ReactNode;
}) {
  return (
    <Center mih="60vh" p={{ base: 'md', xs: 'xl' }}>
      <Stack align="center" gap="sm" maw={520} ta="center">
        {icon ? (
          <ThemeIcon size={56} radius="xl" variant="light">
            {icon}
          </ThemeIcon>
        ) : null}
        {code ? (
          <Text fz={64} fw={800} c="var(--mantine-primary-color-6)" lh={1} aria-hidden="true">
            {code}
          </Text>
        ) : null}
        <Title order={1} fz={28}>
          {title}
        </Title>
        <Text c="dimmed">{description}</Text>
        <Button component={Link} to={actionTo} mt="md">
          {actionLabel}
        </Button>
      </Stack>
    </Center>
  );
}

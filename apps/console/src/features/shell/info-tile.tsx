import { Paper, Text } from '@mantine/core';

/** A labelled value on a card; the building block of the home and account summaries. */
export function InfoTile({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Text fz="xs" tt="uppercase" fw={600} c="dimmed" lts={0.4}>
        {label}
      </Text>
      <Text fz="lg" fw={600} mt={4} data-testid={testId}>
        {value}
      </Text>
    </Paper>
  );
}

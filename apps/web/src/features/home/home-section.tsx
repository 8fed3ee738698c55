import { Box, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled block of the home page, named by its heading for screen readers. */
export function HomeSection({
  id,
  title,
  subtitle,
  children,
}: {
  id: string;
  title: string;
  subtitle?: string;
  children: ReactNode;
}) {
  return (
    <Box component="section" id={id} aria-labelledby={`${id}-title`} py={48}>
      <Stack gap={6} align="center" ta="center" mb="xl">
        <Title order={2} id={`${id}-title`}>
          {title}
        </Title>
        {subtitle && (
          <Text c="dimmed" maw={640}>
            {subtitle}
          </Text>
        )}
      </Stack>
      {children}
    </Box>
  );
}

import { SegmentedControl, Stack, Text } from '@mantine/core';
import { useId } from 'react';

/**
 * A short choice of a few options shown side by side, under its visible label, which also
 * names the control for screen readers. `useId` keeps the pairing stable across hydration.
 */
export function LabelledChoice<T extends string>(props: {
  label: string;
  value: T;
  // The choices' type is the value's: a state setter or a list of plain strings fits it.
  onChange(value: NoInfer<T>): void;
  data: readonly { value: NoInfer<T>; label: string }[];
}) {
  const id = useId();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id={id}>
        {props.label}
      </Text>
      <SegmentedControl
        aria-labelledby={id}
        value={props.value}
        onChange={(value) => props.onChange(value as T)}
        data={[...props.data]}
      />
    </Stack>
  );
}

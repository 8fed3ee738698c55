import { Slider, Text } from '@mantine/core';

/**
 * A slider under a visible label that already says the value ("Size: 30 % of the width"); the
 * label names the thumb for screen readers. `valueBubble={false}` hides Mantine's value bubble
 * where the label alone says it.
 */
export function LabelledSlider(props: {
  label: string;
  value: number;
  min: number;
  max: number;
  step?: number;
  valueBubble?: boolean;
  onChange(value: number): void;
}) {
  return (
    <div>
      <Text size="sm" fw={500} aria-hidden>
        {props.label}
      </Text>
      <Slider
        min={props.min}
        max={props.max}
        step={props.step ?? 1}
        value={props.value}
        onChange={props.onChange}
        thumbLabel={props.label}
        {...(props.valueBubble === false && { label: null })}
      />
    </div>
  );
}

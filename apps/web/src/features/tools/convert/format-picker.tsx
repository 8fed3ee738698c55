import { Select, type ComboboxItem } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The first format whose name contains the typed text, as the list filters it. */
const firstMatch = (data: ComboboxItem[], search: string) =>
  data.find((item) => item.label.toLowerCase().includes(search.trim().toLowerCase()));

/**
 * The target format, searchable: typing filters the list and Enter picks the first match.
 * Enter never submits the form while the typed text names no format.
 */
export function FormatPicker(props: {
  data: ComboboxItem[];
  value: string;
  disabled: boolean;
  /** Help under the field (the formats this server reads but cannot write). */
  description?: string;
  onChange(format: string): void;
}) {
  const { t } = useTranslation();
  const chosenLabel = props.data.find((item) => item.value === props.value)?.label ?? '';
  // Select sets this to the chosen label whenever the choice changes and when the field blurs.
  const [search, setSearch] = useState('');
  return (
    <Select
      label={t('convert.format')}
      description={props.description}
      data={props.data}
      value={props.value}
      onChange={(value) => value && props.onChange(value)}
      allowDeselect={false}
      searchable
      searchValue={search}
      onSearchChange={(next) => {
        // Typing after the shown label ("PNG" then "webp") searches for what was typed.
        const appended = search === chosenLabel && next.startsWith(chosenLabel);
        setSearch(appended && next !== chosenLabel ? next.slice(chosenLabel.length) : next);
      }}
      onFocus={(event) => event.currentTarget.select()}
      onKeyDown={(event) => {
        if (event.key !== 'Enter' || search === chosenLabel) return;
        event.preventDefault();
        // The first match is picked here, not only by the list's own Enter: the list marks its
        // first match a render after the keystroke, and an Enter typed before that was lost.
        // An option chosen with the arrow keys is still taken by the list, after this.
        const match = firstMatch(props.data, search);
        if (match) {
          props.onChange(match.value);
          setSearch(match.label);
        }
      }}
      selectFirstOptionOnChange
      disabled={props.disabled}
      nothingFoundMessage={t('convert.noMatch')}
      maxDropdownHeight={280}
    />
  );
}

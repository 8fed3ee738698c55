import { Select, type ComboboxItem } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

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
        if (event.key === 'Enter' && search !== chosenLabel) event.preventDefault();
      }}
      selectFirstOptionOnChange
      disabled={props.disabled}
      nothingFoundMessage={t('convert.noMatch')}
      maxDropdownHeight={280}
    />
  );
}

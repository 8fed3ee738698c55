import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import { ToolPage } from '../../../components/tool/tool-page';
import { useFormats } from '../../../lib/queries';
import { FormatPicker } from './format-picker';

const tool = toolById('convert');

export function ConvertPage() {
  const { t, i18n } = useTranslation();
  const [format, setFormat] = useState('png');
  // The targets come from the server: only what it writes is offered; what it reads but cannot
  // write is named in the help, so nobody picks a format that cannot work.
  const formats = useFormats();
  const list = formats.data?.formats ?? [];
  const data = list
    .filter((f) => f.write)
    .map((f) => ({ value: f.format, label: f.format.toUpperCase() }));
  const readOnly = list.filter((f) => f.read && !f.write).map((f) => f.format.toUpperCase());
  return (
    <ToolPage
      tool={tool}
      // As the server charges it: to JPG is one service, to anything else the other.
      service={format === 'jpg' || format === 'jpeg' ? 'convert-to-jpg' : 'convert-from-jpg'}
      endpoint="/api/convert"
      submitLabel={t('convert.submit', { format: format.toUpperCase() })}
      fields={(form) => form.append('format', format)}
      options={
        <FormatPicker
          data={data}
          value={format}
          onChange={setFormat}
          disabled={formats.isPending}
          description={
            readOnly.length > 0
              ? t('convert.readsOnly', {
                  formats: new Intl.ListFormat(i18n.language).format(readOnly),
                })
              : undefined
          }
        />
      }
    />
  );
}

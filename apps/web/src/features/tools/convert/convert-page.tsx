import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toolById, type FormatInfo } from '@refract/contracts';
import { ToolPage } from '../../../components/tool/tool-page';
import { api } from '../../../lib/api';
import { FormatPicker } from './format-picker';

const tool = toolById('convert');

export function ConvertPage() {
  const { t } = useTranslation();
  const [format, setFormat] = useState('png');
  // The list of targets comes from the server: what it cannot write is shown, disabled, with why.
  const formats = useQuery({
    queryKey: ['formats'],
    queryFn: () => api<{ formats: FormatInfo[] }>('/api/formats'),
    staleTime: Infinity,
  });
  const data = (formats.data?.formats ?? []).map((f) => ({
    value: f.format,
    label: f.write
      ? f.format.toUpperCase()
      : `${f.format.toUpperCase()} — ${t('convert.unavailable')}`,
    disabled: !f.write,
  }));
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
        />
      }
    />
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import { MediaFormatSelect } from '../../../components/tool/media-format-select';
import { MediaToolPage } from '../../../components/tool/media-tool-page';

const tool = toolById('convertVideo');

/** Video to another video format, or to an audio format (its sound track). */
export function ConvertVideoPage() {
  const { t } = useTranslation();
  const [format, setFormat] = useState('mp4');
  return (
    <MediaToolPage
      tool={tool}
      kind="video"
      endpoint="/api/video/convert-video"
      submitLabel={t('convert.submit', { format: format.toUpperCase() })}
      fields={(form) => form.append('format', format)}
      options={<MediaFormatSelect kinds={['video', 'audio']} value={format} onChange={setFormat} />}
    />
  );
}

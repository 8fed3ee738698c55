import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import { MediaFormatSelect } from '../../../components/tool/media-format-select';
import { MediaToolPage } from '../../../components/tool/media-tool-page';

const tool = toolById('convertAudio');

export function ConvertAudioPage() {
  const { t } = useTranslation();
  const [format, setFormat] = useState('mp3');
  return (
    <MediaToolPage
      tool={tool}
      kind="audio"
      endpoint="/api/audio/convertaudio"
      submitLabel={t('convert.submit', { format: format.toUpperCase() })}
      fields={(form) => form.append('format', format)}
      options={<MediaFormatSelect kinds={['audio']} value={format} onChange={setFormat} />}
    />
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import { MediaToolPage } from '../../../components/tool/media-tool-page';
import { QualitySlider } from '../../../components/tool/quality-slider';

const tool = toolById('compressAudio');

export function CompressAudioPage() {
  const { t } = useTranslation();
  const [percentage, setPercentage] = useState(50);
  return (
    <MediaToolPage
      tool={tool}
      kind="audio"
      endpoint="/api/audio/compress-audio"
      submitLabel={t('media.compress')}
      fields={(form) => form.append('percentage', String(percentage))}
      options={<QualitySlider value={percentage} onChange={setPercentage} />}
    />
  );
}

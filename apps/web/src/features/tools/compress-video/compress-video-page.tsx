import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import { MediaToolPage } from '../../../components/tool/media-tool-page';
import { QualitySlider } from '../../../components/tool/quality-slider';

const tool = toolById('compressVideo');

export function CompressVideoPage() {
  const { t } = useTranslation();
  const [percentage, setPercentage] = useState(40);
  return (
    <MediaToolPage
      tool={tool}
      kind="video"
      endpoint="/api/video/compress-video"
      submitLabel={t('media.compress')}
      fields={(form) => form.append('percentage', String(percentage))}
      options={<QualitySlider value={percentage} onChange={setPercentage} />}
    />
  );
}

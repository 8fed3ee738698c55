import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import { JobToolPage } from '../../../components/tool/job-tool-page';
import { QualitySlider } from '../../../components/tool/quality-slider';
import { useMediaDuration } from '../../../components/tool/use-media-duration';
import {
  appendVideoOptions,
  DEFAULT_VIDEO_OPTIONS,
  VideoOptions,
} from '../../../components/tool/video-options';

const tool = toolById('compressVideo');

/** MP4 at a quality to keep, or under a target size (which replaces the quality). */
export function CompressVideoPage() {
  const { t } = useTranslation();
  const [percentage, setPercentage] = useState(40);
  const [options, setOptions] = useState(DEFAULT_VIDEO_OPTIONS);
  const [file, setFile] = useState<File | null>(null);
  const duration = useMediaDuration(file, 'video');
  return (
    <JobToolPage
      tool={tool}
      kind="video"
      endpoint="/api/video/compress-video"
      submitLabel={t('media.compress')}
      onFileChange={setFile}
      fields={(form) => {
        form.append('percentage', String(percentage));
        appendVideoOptions(form, options, 'mp4');
      }}
      options={
        <>
          {options.targetSize === '' && (
            <QualitySlider value={percentage} onChange={setPercentage} />
          )}
          <VideoOptions value={options} onChange={setOptions} format="mp4" duration={duration} />
        </>
      }
    />
  );
}

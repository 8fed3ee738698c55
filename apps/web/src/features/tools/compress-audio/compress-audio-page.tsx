import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import {
  appendAudioOptions,
  AudioOptions,
  DEFAULT_AUDIO_OPTIONS,
  expectedAudioBytes,
} from '../../../components/tool/audio-options';
import { JobToolPage } from '../../../components/tool/job-tool-page';
import { QualitySlider } from '../../../components/tool/quality-slider';
import { useMediaDuration } from '../../../components/tool/use-media-duration';

const tool = toolById('compressAudio');

/** MP3 at a share of the source's bitrate, or at a bitrate or VBR quality chosen instead. */
export function CompressAudioPage() {
  const { t } = useTranslation();
  const [percentage, setPercentage] = useState(50);
  const [options, setOptions] = useState(DEFAULT_AUDIO_OPTIONS);
  const [file, setFile] = useState<File | null>(null);
  const duration = useMediaDuration(file, 'audio');
  const expected = expectedAudioBytes({
    value: options,
    format: 'mp3',
    file,
    duration,
    compressPercentage: percentage,
  });
  return (
    <JobToolPage
      tool={tool}
      kind="audio"
      endpoint="/api/audio/compress-audio"
      submitLabel={t('media.compress')}
      onFileChange={setFile}
      fields={(form) => {
        form.append('percentage', String(percentage));
        appendAudioOptions(form, options, 'mp3');
      }}
      options={
        <>
          {options.mode === 'auto' && <QualitySlider value={percentage} onChange={setPercentage} />}
          <AudioOptions
            value={options}
            onChange={setOptions}
            format="mp3"
            duration={duration}
            expectedBytes={expected}
            autoLabel={t('mediaOptions.percentage')}
          />
        </>
      }
    />
  );
}

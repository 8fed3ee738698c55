import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import {
  appendAudioOptions,
  AudioOptions,
  DEFAULT_AUDIO_OPTIONS,
  expectedAudioBytes,
} from '../../../components/tool/audio-options';
import { MediaFormatSelect } from '../../../components/tool/media-format-select';
import { JobToolPage } from '../../../components/tool/job-tool-page';
import { useMediaDuration } from '../../../components/tool/use-media-duration';

const tool = toolById('convertAudio');

export function ConvertAudioPage() {
  const { t } = useTranslation();
  const [format, setFormat] = useState('mp3');
  const [options, setOptions] = useState(DEFAULT_AUDIO_OPTIONS);
  const [file, setFile] = useState<File | null>(null);
  const duration = useMediaDuration(file, 'audio');
  return (
    <JobToolPage
      tool={tool}
      kind="audio"
      endpoint="/api/audio/convertaudio"
      submitLabel={t('convert.submit', { format: format.toUpperCase() })}
      onFileChange={setFile}
      fields={(form) => {
        form.append('format', format);
        appendAudioOptions(form, options, format);
      }}
      options={
        <>
          <MediaFormatSelect kinds={['audio']} value={format} onChange={setFormat} />
          <AudioOptions
            value={options}
            onChange={setOptions}
            format={format}
            duration={duration}
            expectedBytes={expectedAudioBytes({ value: options, format, file, duration })}
          />
        </>
      }
    />
  );
}

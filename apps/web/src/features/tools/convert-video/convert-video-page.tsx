import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AUDIO_FORMATS, toolById } from '@refract/contracts';
import {
  appendAudioOptions,
  AudioOptions,
  DEFAULT_AUDIO_OPTIONS,
  expectedAudioBytes,
} from '../../../components/tool/audio-options';
import { MediaFormatSelect } from '../../../components/tool/media-format-select';
import { JobToolPage } from '../../../components/tool/job-tool-page';
import { useMediaDuration } from '../../../components/tool/use-media-duration';
import {
  appendVideoOptions,
  DEFAULT_VIDEO_OPTIONS,
  VideoOptions,
} from '../../../components/tool/video-options';

const tool = toolById('convertVideo');
const isAudio = (format: string) => (AUDIO_FORMATS as readonly string[]).includes(format);

/** Video to another video format, a GIF of a segment, or an audio format (its sound track). */
export function ConvertVideoPage() {
  const { t } = useTranslation();
  const [format, setFormat] = useState('mp4');
  const [video, setVideo] = useState(DEFAULT_VIDEO_OPTIONS);
  const [audio, setAudio] = useState(DEFAULT_AUDIO_OPTIONS);
  const [file, setFile] = useState<File | null>(null);
  const duration = useMediaDuration(file, 'video');
  return (
    <JobToolPage
      tool={tool}
      kind="video"
      endpoint="/api/video/convert-video"
      submitLabel={t('convert.submit', { format: format.toUpperCase() })}
      onFileChange={setFile}
      fields={(form) => {
        form.append('format', format);
        if (isAudio(format)) appendAudioOptions(form, audio, format);
        else appendVideoOptions(form, video, format);
      }}
      options={
        <>
          <MediaFormatSelect kinds={['video', 'audio']} value={format} onChange={setFormat} />
          {isAudio(format) ? (
            <AudioOptions
              value={audio}
              onChange={setAudio}
              format={format}
              duration={duration}
              // A video's size says nothing of its sound track's bitrate.
              expectedBytes={
                audio.mode === 'auto'
                  ? null
                  : expectedAudioBytes({ value: audio, format, file, duration })
              }
            />
          ) : (
            <VideoOptions value={video} onChange={setVideo} format={format} duration={duration} />
          )}
        </>
      }
    />
  );
}

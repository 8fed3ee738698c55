import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import { usePerFile } from '../../../components/tool/batch/use-per-file';
import { ToolPage } from '../../../components/tool/tool-page';
import { areasField, type BlurRect } from './blur-areas';
import { BlurFaceEditor } from './blur-face-editor';
import { BlurFaceOptions } from './blur-face-options';
import { DEFAULT_HIDE, hideFields, type HideSettings } from './blur-style';

const tool = toolById('blurFace');
const NO_AREAS: BlurRect[] = [];

/**
 * Areas are placed on a preview (by hand or by face detection); the server hides the original's
 * as the preview shows them. In a batch each image may have its own areas; the others are hidden
 * where the first's are. "Blur all faces" has the server find each file's faces itself.
 */
export function BlurFacePage() {
  const { t } = useTranslation();
  const areas = usePerFile(NO_AREAS);
  const [settings, setSettings] = useState<HideSettings>(DEFAULT_HIDE);
  const [detecting, setDetecting] = useState(false);
  const sent = (index: number) => ({ areas: areasField(areas.get(index)) });

  return (
    <ToolPage
      tool={tool}
      endpoint="/api/blur-face"
      submitLabel={t('blurFace.submit')}
      downloadOnDone
      failedMessage={t('blurFace.failed')}
      showSizes={false}
      preparing={detecting}
      onFileChange={areas.reset}
      validate={() =>
        !settings.detectAll &&
        [0, ...areas.ownIndexes()].some((index) => areas.get(index).length === 0)
          ? t('blurFace.addFirst')
          : null
      }
      fields={(form) => {
        form.append('areas', sent(0).areas);
        for (const [name, value] of Object.entries(hideFields(settings))) form.append(name, value);
      }}
      perFile={{
        files: areas,
        fields: (index) => (areas.hasOwn(index) ? sent(index) : null),
      }}
      options={
        <BlurFaceOptions
          settings={settings}
          onChange={(change) => setSettings((current) => ({ ...current, ...change }))}
        />
      }
      editor={({ file, url, index }) => (
        <BlurFaceEditor
          file={file}
          url={url}
          areas={areas.get(index)}
          settings={settings}
          onAreas={(change) => areas.update(index, change)}
          onDetecting={setDetecting}
        />
      )}
    />
  );
}

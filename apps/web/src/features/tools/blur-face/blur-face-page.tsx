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
 * where the first's are. "Blur all faces" on one file finds its faces on the preview first, for
 * review: what is sent is the boxes as the user left them. On a batch the server finds each
 * file's faces itself.
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
      validate={(batch) => {
        if (settings.detectAll && batch) return null;
        const empty = [0, ...areas.ownIndexes()].some((index) => areas.get(index).length === 0);
        if (!empty) return null;
        // "Blur all faces" is on and found nothing (or every box was removed): say that.
        return t(settings.detectAll ? 'blurFace.noFaces' : 'blurFace.addFirst');
      }}
      fields={(form, batch) => {
        form.append('areas', sent(0).areas);
        // One file's faces were found on the preview and reviewed: the boxes are the answer.
        const reviewed = { ...settings, detectAll: settings.detectAll && batch };
        for (const [name, value] of Object.entries(hideFields(reviewed))) form.append(name, value);
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
      editor={({ file, url, index, batch }) => (
        <BlurFaceEditor
          file={file}
          url={url}
          findFaces={settings.detectAll && !batch}
          areas={areas.get(index)}
          settings={settings}
          onAreas={(change) => areas.update(index, change)}
          onDetecting={setDetecting}
        />
      )}
    />
  );
}

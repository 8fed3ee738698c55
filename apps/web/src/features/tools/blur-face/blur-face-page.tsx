import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import { usePerFile } from '../../../components/tool/batch/use-per-file';
import { ToolPage } from '../../../components/tool/tool-page';
import { areasField, type BlurRect } from './blur-areas';
import { BlurFaceEditor } from './blur-face-editor';

const tool = toolById('blurFace');
const NO_AREAS: BlurRect[] = [];

/**
 * Areas are placed on a preview (by hand or by face detection); the server blurs the original.
 * In a batch each image may have its own areas; the others are blurred where the first is.
 */
export function BlurFacePage() {
  const { t } = useTranslation();
  const areas = usePerFile(NO_AREAS);
  const sent = (index: number) => ({ areas: areasField(areas.get(index)) });

  return (
    <ToolPage
      tool={tool}
      endpoint="/api/blur-face"
      submitLabel={t('blurFace.submit')}
      downloadOnDone
      failedMessage={t('blurFace.failed')}
      showSizes={false}
      onFileChange={areas.reset}
      validate={() =>
        [0, ...areas.ownIndexes()].some((index) => areas.get(index).length === 0)
          ? t('blurFace.addFirst')
          : null
      }
      fields={(form) => form.append('areas', sent(0).areas)}
      perFile={{
        files: areas,
        fields: (index) => (areas.hasOwn(index) ? sent(index) : null),
      }}
      editor={({ file, url, index }) => (
        <BlurFaceEditor
          file={file}
          url={url}
          areas={areas.get(index)}
          onAreas={(change) => areas.update(index, change)}
        />
      )}
    />
  );
}

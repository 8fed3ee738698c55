import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import { ToolPage } from '../../../components/tool/tool-page';
import { areasField, type BlurRect } from './blur-areas';
import { BlurFaceEditor } from './blur-face-editor';

const tool = toolById('blurFace');

/** Areas are placed on a preview (by hand or by face detection); the server blurs the original. */
export function BlurFacePage() {
  const { t } = useTranslation();
  const [areas, setAreas] = useState<BlurRect[]>([]);

  return (
    <ToolPage
      tool={tool}
      endpoint="/api/blur-face"
      submitLabel={t('blurFace.submit')}
      failedMessage={t('blurFace.failed')}
      showSizes={false}
      onFileChange={() => setAreas([])}
      validate={() => (areas.length === 0 ? t('blurFace.addFirst') : null)}
      fields={(form) => form.append('areas', areasField(areas))}
      editor={({ file, url }) => (
        <BlurFaceEditor file={file} url={url} areas={areas} onAreas={setAreas} />
      )}
    />
  );
}

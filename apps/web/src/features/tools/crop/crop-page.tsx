import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toolById } from '@refract/contracts';
import { usePerFile } from '../../../components/tool/batch/use-per-file';
import { ToolPage } from '../../../components/tool/tool-page';
import type { Size } from './crop-geometry';
import { CropEditor } from './crop-editor';
import { cropFields, INITIAL_CROP } from './crop-settings';

const tool = toolById('crop');

/**
 * The frame is set in the browser; the server cuts the same rectangle of the image, mirrored
 * and turned the same way. In a batch a file that follows the first one's frame is cut at the
 * same place and nearness on its own pixels once its size is known (it was shown), else at the
 * first image's rectangle.
 */
export function CropPage() {
  const { t } = useTranslation();
  const crops = usePerFile(INITIAL_CROP);
  /** Each shown file's size, so a file following the first is cut on its own pixels. */
  const [sizes, setSizes] = useState(new Map<number, Size>());
  const sizeSeen = (index: number, size: Size) =>
    setSizes((s) => {
      const known = s.get(index);
      if (known?.width === size.width && known.height === size.height) return s;
      return new Map(s).set(index, size);
    });

  return (
    <ToolPage
      tool={tool}
      endpoint="/api/crop"
      submitLabel={t('crop.submit')}
      downloadOnDone
      failedMessage={t('crop.failed')}
      showSizes={false}
      onFileChange={() => {
        crops.reset();
        setSizes(new Map());
      }}
      fields={(form) => {
        for (const [name, value] of Object.entries(cropFields(crops.get(0), sizes.get(0) ?? null)))
          form.append(name, value);
      }}
      perFile={{
        files: crops,
        fields: (index) =>
          crops.hasOwn(index) || sizes.has(index)
            ? cropFields(crops.get(index), sizes.get(index) ?? null)
            : null,
      }}
      editor={({ url, index }) => (
        <CropEditor
          url={url}
          settings={crops.get(index)}
          onChange={(change) => crops.update(index, change)}
          onSize={(size) => sizeSeen(index, size)}
        />
      )}
    />
  );
}

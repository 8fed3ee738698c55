import {
  ActionIcon,
  Button,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  MAX_MEME_BOXES,
  MAX_MEME_TEXT,
  MEME_FONT_SIZE,
  MEME_OUTLINE,
  toolById,
} from '@refract/contracts';
import { ToolPage } from '../../../components/tool/tool-page';
import { DEFAULT_MEME, type MemeBoxDraft, type MemeSettings } from './draw-meme';
import { MemePreview } from './meme-preview';
import { LabelledChoice } from '../../../components/tool/labelled-choice';
import { LabelledSlider } from '../../../components/tool/labelled-slider';

const tool = toolById('meme');

let nextBoxId = 1;
/** A new box goes in the middle, half the image wide, a little lower for each one already there. */
const newBox = (count: number): MemeBoxDraft => ({
  id: nextBoxId++,
  text: '',
  x: 0.5,
  y: Math.min(0.9, 0.5 + 0.08 * (count % 5)),
  width: 0.5,
});

/** The boxes as the server's `boxes` field, without the editor's ids. */
const boxesField = (boxes: MemeBoxDraft[]) =>
  JSON.stringify(boxes.map(({ id: _id, ...box }) => ({ ...box, text: box.text.trim() })));

/** Open to visitors; making a meme needs an account, which the server checks. */
export function MemePage() {
  const { t } = useTranslation();
  const [meme, setMeme] = useState<MemeSettings>(DEFAULT_MEME);
  const set = (changes: Partial<MemeSettings>) => setMeme((m) => ({ ...m, ...changes }));
  const setBoxes = (update: (boxes: MemeBoxDraft[]) => MemeBoxDraft[]) =>
    setMeme((m) => ({ ...m, boxes: update(m.boxes) }));
  const setBox = (next: MemeBoxDraft) =>
    setBoxes((boxes) => boxes.map((box) => (box.id === next.id ? next : box)));
  const removeBox = (id: number) => setBoxes((boxes) => boxes.filter((box) => box.id !== id));

  return (
    <ToolPage
      tool={tool}
      endpoint="/api/meme"
      submitLabel={t('meme.submit')}
      downloadOnDone
      failedMessage={t('meme.failed')}
      showSizes={false}
      fields={(form) => {
        form.append('topText', meme.topText);
        form.append('bottomText', meme.bottomText);
        form.append('position', meme.position);
        form.append('background', meme.background);
        form.append('fontSize', String(meme.fontSize));
        form.append('outline', String(meme.outline));
        form.append('boxes', boxesField(meme.boxes));
      }}
      editor={({ url }) => (
        <MemePreview url={url} meme={meme} onBox={setBox} onRemoveBox={removeBox} />
      )}
      options={
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('meme.topText')}
              value={meme.topText}
              maxLength={MAX_MEME_TEXT}
              onChange={(event) => set({ topText: event.currentTarget.value })}
            />
            <TextInput
              label={t('meme.bottomText')}
              value={meme.bottomText}
              maxLength={MAX_MEME_TEXT}
              onChange={(event) => set({ bottomText: event.currentTarget.value })}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <LabelledSlider
              label={t('meme.fontSize', { value: meme.fontSize })}
              value={meme.fontSize}
              min={MEME_FONT_SIZE.min}
              max={MEME_FONT_SIZE.max}
              onChange={(fontSize) => set({ fontSize })}
            />
            <LabelledSlider
              label={t('meme.outline', { value: meme.outline })}
              value={meme.outline}
              min={MEME_OUTLINE.min}
              max={MEME_OUTLINE.max}
              onChange={(outline) => set({ outline })}
            />
          </SimpleGrid>
          {meme.boxes.map((box, index) => (
            <Group key={box.id} gap="xs" wrap="nowrap" align="end">
              <TextInput
                style={{ flex: 1 }}
                label={t('meme.boxText', { number: index + 1 })}
                value={box.text}
                maxLength={MAX_MEME_TEXT}
                onChange={(event) => setBox({ ...box, text: event.currentTarget.value })}
              />
              <NumberInput
                w={96}
                label={t('meme.boxSize')}
                aria-label={t('meme.boxSizeOf', { number: index + 1 })}
                suffix=" %"
                min={MEME_FONT_SIZE.min}
                max={MEME_FONT_SIZE.max}
                clampBehavior="strict"
                allowDecimal={false}
                value={box.fontSize ?? meme.fontSize}
                onChange={(value) =>
                  typeof value === 'number' && setBox({ ...box, fontSize: value })
                }
              />
              <ActionIcon
                size="lg"
                variant="light"
                color="red"
                aria-label={t('meme.removeBox', { number: index + 1 })}
                onClick={() => removeBox(box.id)}
              >
                <IconTrash size={18} />
              </ActionIcon>
            </Group>
          ))}
          <Group gap="sm">
            <Button
              variant="light"
              leftSection={<IconPlus size={18} />}
              disabled={meme.boxes.length >= MAX_MEME_BOXES}
              onClick={() => setBoxes((boxes) => [...boxes, newBox(boxes.length)])}
            >
              {t('meme.addBox')}
            </Button>
            <Text size="sm" c="dimmed">
              {t('meme.boxHint', { max: MAX_MEME_BOXES })}
            </Text>
          </Group>
          <LabelledChoice
            label={t('meme.position')}
            value={meme.position}
            onChange={(position) => set({ position })}
            data={[
              { value: 'inside', label: t('meme.inside') },
              { value: 'outside', label: t('meme.outside') },
            ]}
          />
          {meme.position === 'outside' && (
            <Select
              label={t('meme.background')}
              value={meme.background}
              allowDeselect={false}
              onChange={(background) =>
                background && set({ background: background as MemeSettings['background'] })
              }
              data={[
                { value: 'white', label: t('meme.white') },
                { value: 'black', label: t('meme.black') },
              ]}
            />
          )}
        </Stack>
      }
    />
  );
}

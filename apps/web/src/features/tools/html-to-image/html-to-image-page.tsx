import {
  Group,
  Image,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
} from '@mantine/core';
import { HTML_IMAGE_FORMATS } from '@refract/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DownloadButton } from '../../../components/tool/download-button';
import { ErrorAlert } from '../../../components/error-alert';
import { ToolFrame } from '../../../components/tool/tool-frame';
import { ToolSubmit } from '../../../components/tool/tool-submit';
import { useToolRun } from '../../../components/tool/use-tool-run';
import { useWhenSignedIn } from '../../../lib/session/account-gate';
import { useErrorMessage } from '../../../lib/use-error-message';
import { LabelledChoice } from '../../../components/tool/labelled-choice';

const EXAMPLE = `<div style="font-family: sans-serif; padding: 40px; background: linear-gradient(135deg, #7048e8, #1c7ed6); color: white">
  <h1>Hello from Refract</h1>
  <p>Any HTML and CSS, rendered on our server.</p>
</div>`;

export function HtmlToImagePage() {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const [html, setHtml] = useState(EXAMPLE);
  const [emptyError, setEmptyError] = useState(false);
  const [width, setWidth] = useState(1280);
  const [height, setHeight] = useState(800);
  const [scale, setScale] = useState('1');
  const [fullPage, setFullPage] = useState(true);
  const [format, setFormat] = useState<(typeof HTML_IMAGE_FORMATS)[number]>('png');
  const run = useToolRun('/api/html-to-image');
  const whenSignedIn = useWhenSignedIn();

  function submit(event: FormEvent) {
    event.preventDefault();
    setEmptyError(!html.trim());
    if (!html.trim()) return;
    const body = JSON.stringify({ html, width, height, fullPage, scale: Number(scale), format });
    whenSignedIn(() => void run.run(body));
  }

  const error = emptyError ? t('errors.empty_html') : run.error ? errorMessage(run.error) : null;
  return (
    <ToolFrame toolId="htmlToImage" onSubmit={submit}>
      <Textarea
        label={t('htmlToImage.label')}
        description={t('htmlToImage.hint')}
        value={html}
        onChange={(e) => setHtml(e.currentTarget.value)}
        // A fixed height the user can drag, not one measured by script: the prerendered page
        // drew the box short and it grew when the script measured it, moving the page below.
        rows={10}
        resize="vertical"
        styles={{ input: { fontFamily: 'ui-monospace, monospace', direction: 'ltr' } }}
      />
      <Text size="sm" c="dimmed">
        {t('htmlToImage.sealed')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NumberInput
          label={t('htmlToImage.width')}
          min={100}
          max={4000}
          clampBehavior="strict"
          value={width}
          onChange={(value) => setWidth(Number(value) || 100)}
        />
        <NumberInput
          label={t('htmlToImage.height')}
          description={fullPage ? t('htmlToImage.heightFullPage') : undefined}
          min={100}
          max={16000}
          clampBehavior="strict"
          value={height}
          onChange={(value) => setHeight(Number(value) || 100)}
        />
        <LabelledChoice
          label={t('htmlToImage.scale')}
          value={scale}
          onChange={setScale}
          data={['1', '2', '3'].map((value) => ({ value, label: `${value}×` }))}
        />
        <LabelledChoice
          label={t('htmlToImage.format')}
          value={format}
          onChange={setFormat}
          data={HTML_IMAGE_FORMATS.map((value) => ({ value, label: value.toUpperCase() }))}
        />
      </SimpleGrid>
      <Switch
        label={t('htmlToImage.fullPage')}
        checked={fullPage}
        onChange={(e) => setFullPage(e.currentTarget.checked)}
      />
      <Text size="xs" c="dimmed">
        {t('htmlToImage.outputSize', {
          width: width * Number(scale),
          height: height * Number(scale),
        })}
      </Text>
      <ErrorAlert message={error} />
      <ToolSubmit
        service="convert-html-to-image"
        label={t('htmlToImage.submit')}
        busy={run.busy}
        result={run.result}
      />
      {run.result && (
        <Stack>
          <Image
            src={run.result.url}
            alt={t('htmlToImage.preview')}
            radius="md"
            style={{ border: '1px solid var(--mantine-color-gray-3)' }}
          />
          <Group justify="flex-end">
            <DownloadButton result={run.result} />
          </Group>
        </Stack>
      )}
    </ToolFrame>
  );
}

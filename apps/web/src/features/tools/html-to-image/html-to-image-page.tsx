import { Group, Image, Stack, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DownloadButton } from '../../../components/tool/download-button';
import { ErrorAlert } from '../../../components/error-alert';
import { ToolFrame } from '../../../components/tool/tool-frame';
import { ToolSubmit } from '../../../components/tool/tool-submit';
import { useToolRun } from '../../../components/tool/use-tool-run';
import { useWhenSignedIn } from '../../../lib/session/account-gate';
import { useErrorMessage } from '../../../lib/use-error-message';

const EXAMPLE = `<div style="font-family: sans-serif; padding: 40px; background: linear-gradient(135deg, #7048e8, #1c7ed6); color: white">
  <h1>Hello from Refract</h1>
  <p>Any HTML and CSS, rendered on our server.</p>
</div>`;

export function HtmlToImagePage() {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const [html, setHtml] = useState(EXAMPLE);
  const [emptyError, setEmptyError] = useState(false);
  const run = useToolRun('/api/html-to-image');
  const whenSignedIn = useWhenSignedIn();

  function submit(event: FormEvent) {
    event.preventDefault();
    setEmptyError(!html.trim());
    if (!html.trim()) return;
    const body = JSON.stringify({ html, width: 1280, fullPage: true });
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
        autosize
        minRows={8}
        maxRows={20}
        styles={{ input: { fontFamily: 'ui-monospace, monospace', direction: 'ltr' } }}
      />
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

import { afterAll, beforeAll, expect, it } from 'vitest';
import { registerUser } from '../../test/accounts.js';
import { describeEachQueue } from '../../test/queues.js';
import { hasFfmpeg } from '../../test/image-fixtures.js';
import { ended, wav } from '../../test/jobs.js';
import { postForm } from '../../test/multipart.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * One search follows a job from its upload to its end: the runner, in whichever process takes
 * the job, logs the id of the request that uploaded it on every line about it.
 */
describeEachQueue('a job’s log lines', (queueEnv) => {
  let t: TestApp;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      env: { ...queueEnv, LOG_LEVEL: 'info' },
      logStream: { write: (line) => void lines.push(JSON.parse(line)) },
    });
  });
  afterAll(() => t.close());

  it.skipIf(!hasFfmpeg)('carry the upload’s request id and the job’s id', async () => {
    const { token } = await registerUser(t.app);
    const requestId = `trace-upload-${Date.now()}`;
    const res = await postForm(t.app, '/api/audio/convertaudio?async=1', {
      token,
      fields: { format: 'mp3' },
      file: { field: 'audio', content: wav },
      headers: { 'x-request-id': requestId },
    });
    expect(res.statusCode, res.body).toBe(202);
    const { jobId } = res.json();
    expect((await ended(t, token, jobId)).status).toBe('done');

    const traced = lines.filter((line) => JSON.stringify(line).includes(requestId));
    // The upload's own request line, then the runner's lines about the job.
    expect(traced.find((line) => line.msg === 'request')).toMatchObject({ reqId: requestId });
    const jobLines = lines.filter((line) => line.jobId === jobId);
    expect(jobLines.map((line) => line.msg)).toEqual(
      expect.arrayContaining(['job started', 'job ended']),
    );
    for (const line of jobLines) expect(line.requestId).toBe(requestId);
  });
});

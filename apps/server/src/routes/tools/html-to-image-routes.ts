import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  htmlToImageBodySchema,
  MAX_HTML_BYTES,
  MAX_HTML_IMAGE_PIXELS,
  MAX_HTML_IMAGE_SIDE,
} from '@refract/contracts';
import type { AppContext } from '../../app-context.js';
import { AppError } from '../../lib/app-error.js';
import { resolveExecutable } from '../../media/engines.js';
import { HtmlRenderer, maxCssHeight } from '../../media/html/html-renderer.js';
import type { Services } from '../../services/services.js';
import { downloadHeaders, runMetered } from './metered.js';

const EXTENSIONS = { png: 'png', jpeg: 'jpg', webp: 'webp' } as const;

/** POST /api/html-to-image: JSON in, an image out, rendered in the sealed Chromium. */
export const htmlToImageRoutes =
  (context: AppContext, services: Services): FastifyPluginAsyncZod =>
  async (app) => {
    const renderer = new HtmlRenderer(resolveExecutable(context.config.engines.chromium));
    app.addHook('onClose', () => renderer.close());

    app.post(
      '/api/html-to-image',
      {
        // The HTML may be up to 1 MB; JSON escaping can add a little.
        bodyLimit: MAX_HTML_BYTES * 2,
        config: {
          access: 'userOrKey',
          metered: true,
          produces: {
            contentTypes: ['image/png', 'image/jpeg', 'image/webp'],
            description: 'The image',
          },
          errors: [
            'empty_html',
            'image_too_large',
            'payload_too_large',
            'quota_exceeded',
            'engine_unavailable',
            'render_timeout',
            'render_too_large',
            'too_many_renders',
            'too_many_timeouts',
            'processing_failed',
          ],
        },
        schema: {
          summary: 'Render HTML to an image in a sealed browser',
          tags: ['Image tools'],
          body: htmlToImageBodySchema,
        },
      },
      async (request, reply) => {
        const body = request.body;
        if (!body.html.trim()) throw new AppError(400, 'empty_html', 'Enter some HTML to render');
        if (Buffer.byteLength(body.html) > MAX_HTML_BYTES) {
          throw new AppError(413, 'payload_too_large', 'The HTML is larger than 1 MB');
        }
        // The viewport (or a full page's first screen) must fit; a full page is cut at the limit.
        const shownHeight = body.height ?? (body.fullPage ? 100 : 800);
        if (shownHeight > maxCssHeight(body.width, body.scale)) {
          throw new AppError(
            422,
            'image_too_large',
            `${body.width} × ${shownHeight} at ${body.scale}× is larger than ${MAX_HTML_IMAGE_PIXELS / 1_000_000} megapixels or ${MAX_HTML_IMAGE_SIDE} pixels high`,
          );
        }
        if (!context.engines.chromium.available) {
          throw new AppError(
            503,
            'engine_unavailable',
            'HTML to image needs Chromium, which is not installed on this server',
          );
        }
        const image = await runMetered(
          services,
          request.user!,
          'convert-html-to-image',
          reply,
          () => renderer.render(body, request.user!.id),
        );
        return reply
          .headers(downloadHeaders(`image/${body.format}`, `html-image.${EXTENSIONS[body.format]}`))
          .send(image);
      },
    );
  };

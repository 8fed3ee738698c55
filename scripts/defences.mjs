// Each defence of docs/security.md: the edit that removes it, and the tests that must then fail.
// [file, text to find (exactly once), replacement]; test: [test file, test name pattern].
const S = 'apps/server/src/';
const security = (name) => `${S}security/${name}.test.ts`;

export const DEFENCES = [
  // Headers and transport
  {
    defence: 'CSP forbids inline script',
    edits: [[`${S}app.ts`, `scriptSrc: ["'self'"],`, `scriptSrc: ["'self'", "'unsafe-inline'"],`]],
    test: [security('headers'), 'CSP without inline script'],
  },
  {
    defence: 'frame-ancestors none',
    edits: [[`${S}app.ts`, `frameAncestors: ["'none'"],`, `frameAncestors: ['*'],`]],
    test: [security('headers'), 'CSP without inline script'],
  },
  {
    defence: 'HSTS when PUBLIC_URL is https',
    edits: [
      [
        `${S}app.ts`,
        `strictTransportSecurity: config.publicUrl.startsWith('https://'),`,
        'strictTransportSecurity: false,',
      ],
    ],
    test: [security('headers'), 'HSTS'],
  },
  {
    defence: 'downloads are attachments',
    edits: [[`${S}routes/tools/metered.ts`, '`attachment; filename=', '`inline; filename=']],
    test: [security('headers'), 'attachment'],
  },
  {
    defence: 'CORS closed unless listed',
    edits: [
      [`${S}plugins/cors.ts`, 'if (origins.length === 0) return;', ''],
      [`${S}plugins/cors.ts`, 'origin: origins,', 'origin: true,'],
    ],
    test: [security('headers'), 'CORS'],
  },
  {
    defence: '1 MB JSON body limit',
    edits: [[`${S}app.ts`, 'bodyLimit: 1024 * 1024,', 'bodyLimit: 100 * 1024 * 1024,']],
    test: [security('headers'), '1 MB'],
  },
  {
    defence: 'stalled and slow uploads cut off',
    edits: [[`${S}app.ts`, 'closeStalledRequests(app, config.uploadTimeouts);', '']],
    test: [security('uploads'), 'stalled|drips'],
  },
  // Accounts and tokens
  {
    defence: 'JWT pinned to HS256',
    edits: [[`${S}services/token-service.ts`, ", { algorithms: ['HS256'] }", '']],
    test: [security('tokens'), 'algorithm confusion'],
  },
  {
    defence: 'JWT signature and expiry checked',
    edits: [
      [
        `${S}services/token-service.ts`,
        "const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });",
        "const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());",
      ],
    ],
    test: [security('tokens'), 'another secret|expired|payload edited|alg none'],
  },
  {
    defence: 'sessions end on password reset',
    edits: [
      [
        `${S}services/account-service.ts`,
        'if (!row || row.session_epoch !== claims.sessionEpoch)',
        'if (!row)',
      ],
    ],
    test: [`${S}routes/auth/password-recovery-routes.test.ts`, 'ends the old sessions'],
  },
  {
    defence: 'sign-up ignores isAdmin',
    edits: [
      [
        `packages/contracts/src/auth.ts`,
        'export const registerBodySchema = z\n  .object({',
        'export const registerBodySchema = z\n  .looseObject({',
      ],
      [
        `${S}services/account-service.ts`,
        'country: body.country || null,',
        'country: body.country || null,\n          isAdmin: (body as { isAdmin?: boolean }).isAdmin,',
      ],
    ],
    test: [`${S}routes/auth/auth-routes.test.ts`, 'ignores isAdmin'],
  },
  {
    defence: 'every route guarded where it is declared',
    edits: [[`${S}plugins/auth.ts`, 'route.onRequest = [guardRoute, ...hooks];', 'void hooks;']],
    test: [security('access'), 'every route is guarded'],
  },
  {
    defence: 'admin routes need an admin',
    edits: [
      [
        `${S}routes/admin/admin-routes.ts`,
        "'/api/admin/users',\n      {\n        config: { access: 'admin' },",
        "'/api/admin/users',\n      {\n        config: { access: 'user' },",
      ],
    ],
    test: [security('access'), 'percent-encoded path'],
  },
  {
    defence: 'a route without an access level refuses everyone',
    edits: [[`${S}plugins/auth.ts`, 'if (!guard) {', 'if (!guard) {\n      return;']],
    test: [security('access'), 'refuses everyone'],
  },
  {
    defence: 'authentication before body validation',
    edits: [
      [
        `${S}plugins/auth.ts`,
        'route.onRequest = [guardRoute, ...hooks];',
        'route.preHandler = [guardRoute, ...[route.preHandler ?? []].flat()];',
      ],
    ],
    test: [security('access'), 'before it validates'],
  },
  {
    defence: 'API keys refused on account routes',
    edits: [[`${S}plugins/auth.ts`, '} else throw keyNotAllowed();', '}']],
    test: [`${S}routes/keys/api-key-routes.test.ts`, 'never works on account'],
  },
  {
    defence: 'credentials redacted from the log',
    edits: [
      [
        `${S}app.ts`,
        "redact: { paths: REDACTED, censor: '[redacted]' },",
        "redact: { paths: [], censor: '[redacted]' },",
      ],
    ],
    test: [`${S}routes/keys/api-key-routes.test.ts`, 'not in the log'],
  },
  {
    defence: 'login: same answer for unknown emails',
    edits: [
      [
        `${S}services/account-service.ts`,
        'const ok = await verifySecret(row?.password_hash',
        "if (!row) throw new AppError(404, 'not_found', 'No account uses this email');\n      const ok = await verifySecret(row?.password_hash",
      ],
    ],
    test: [`${S}routes/auth/auth-routes.test.ts`, 'unknown email identically'],
  },
  {
    defence: 'recovery: same answer for unknown emails',
    edits: [
      [
        `${S}services/password-recovery-service.ts`,
        'const decoy = await decoyHash();',
        "if (!row) throw new AppError(404, 'not_found', 'No account uses this email');\n      const decoy = await decoyHash();",
      ],
    ],
    test: [`${S}routes/auth/password-recovery-routes.test.ts`, 'unknown email exactly like'],
  },
  {
    defence: 'reset needs the token that answers earn',
    edits: [
      [
        `${S}services/password-recovery-service.ts`,
        'if (!row || !resetToken) throw invalidResetToken();',
        'if (!row) throw invalidResetToken();',
      ],
      [
        `${S}services/password-recovery-service.ts`,
        'if (!(await resets.consume(row.id, sha256(resetToken)))) throw invalidResetToken();',
        '',
      ],
    ],
    test: [`${S}routes/auth/password-recovery-routes.test.ts`, 'email alone'],
  },
  {
    defence: 'rate limit on credentials',
    edits: [
      [
        `${S}services/services.ts`,
        'CREDENTIAL_ATTEMPTS = { max: 10,',
        'CREDENTIAL_ATTEMPTS = { max: 10_000,',
      ],
    ],
    test: [`${S}routes/auth/auth-routes.test.ts`, 'rate limits'],
  },
  // Other users' things
  {
    defence: 'jobs: owner only',
    edits: [
      [`${S}services/jobs/job-service.ts`, 'if (!job || job.user_id !== user.id)', 'if (!job)'],
    ],
    test: [`${S}services/jobs/jobs.test.ts`, 'to its owner only'],
  },
  {
    defence: 'API keys: owner only',
    edits: [
      [
        `${S}db/repositories/api-keys-repository.ts`,
        ".where('id', '=', id)\n        .where('user_id', '=', userId)",
        ".where('id', '=', id)",
      ],
    ],
    test: [`${S}routes/keys/api-key-routes.test.ts`, 'only the owner revoke'],
  },
  {
    defence: 'checkouts: owner only',
    edits: [[`${S}services/payments/payment-service.ts`, 'checkout.user_id !== user.id || ', '']],
    test: [`${S}services/payments/sandbox-payments.test.ts`, "another user's checkout"],
  },
  {
    defence: 'plans: admins only',
    edits: [
      [
        `${S}routes/plans/plan-routes.ts`,
        "config: { access: 'admin', errors: ['plan_name_taken'] },",
        "config: { access: 'user', errors: ['plan_name_taken'] },",
      ],
    ],
    test: [`${S}routes/plans/plan-routes.test.ts`, 'admin only'],
  },
  // Hostile images
  {
    defence: 'image type from the bytes, others refused',
    edits: [
      [
        `${S}media/image/pipeline.ts`,
        'if (!format || (!SHARP_INPUTS.has(format) && !MAGICK_INPUTS[format])) {',
        'if (false) {',
      ],
    ],
    test: [security('images'), 'MVG|MSL'],
  },
  {
    defence: 'SVG entities refused',
    edits: [[`${S}media/image/pipeline.ts`, 'if (/<!DOCTYPE|<!ENTITY/i.test(text))', 'if (false)']],
    test: [security('images'), 'billion laughs'],
  },
  {
    defence: 'SVG references outside the file refused',
    edits: [
      [
        `${S}media/image/pipeline.ts`,
        '.some((ref) => !SAFE_REFERENCE.test(ref))',
        '.some(() => false)',
      ],
    ],
    test: [security('images'), 'SVG links to'],
  },
  {
    defence: 'SVG processing instructions refused',
    edits: [[`${S}media/image/pipeline.ts`, 'if (hasProcessingInstruction(text))', 'if (false)']],
    test: [security('images'), 'xml-stylesheet'],
  },
  {
    defence: 'SVG CSS read with escapes decoded and comments removed',
    edits: [
      [
        `${S}media/image/svg-references.ts`,
        'const views = [escaped, stripCssComments(escaped), decodeCssEscapes(stripCssComments(xml))];',
        'const views = [xml];',
      ],
    ],
    test: [security('images'), 'CSS escape|comment in it'],
  },
  {
    defence: 'SVG character references decoded',
    edits: [
      [
        `${S}media/image/svg-references.ts`,
        'const xml = decodeXmlReferences(text);',
        'const xml = text;',
      ],
    ],
    test: [security('images'), 'character reference'],
  },
  {
    defence: 'pixel limit on decoding',
    edits: [
      [
        `${S}media/image/pipeline.ts`,
        'MAX_INPUT_PIXELS = 100_000_000;',
        'MAX_INPUT_PIXELS = 100_000_000_000;',
      ],
    ],
    test: [security('images'), 'over the 100-megapixel'],
  },
  {
    defence: 'upload names never used as paths',
    edits: [
      [
        `${S}plugins/uploads.ts`,
        "const path = join(workDir, 'input');",
        'const path = join(workDir, part.filename);',
      ],
    ],
    test: [security('images'), 'file name as a path'],
  },
  {
    defence: 'image pipelines bounded per process',
    edits: [[`${S}media/image/slots.ts`, 'if (active < IMAGE_SLOTS) {', 'if (true) {']],
    test: [security('image-work'), 'pipelines at once'],
  },
  {
    defence: 'blur areas clamped and merged',
    edits: [[`${S}tools/blur-face.ts`, 'if (i < 0) break;', 'break;']],
    test: [security('image-work'), '100000×100000 on a 2000×2000'],
  },
  {
    defence: 'watermark font held to the image',
    edits: [
      [`${S}tools/watermark.ts`, 'bounds.maxSizePx,\n    WATERMARK', 'Infinity,\n    WATERMARK'],
    ],
    test: [security('image-work'), 'scale=3 previewWidth=12'],
  },
  {
    defence: "text held to the image's pixels",
    edits: [
      [`${S}media/image/text.ts`, 'Math.max(1_000_000, 4 * width * height)', 'MAX_TEXT_PIXELS'],
    ],
    test: [security('image-work'), 'scale=3 previewWidth=12'],
  },
  {
    defence: 'text outline bounded',
    edits: [
      [
        `${S}media/image/text.ts`,
        'Math.min(options.outlinePx ?? 0, size * MAX_OUTLINE_RATIO, MAX_OUTLINE_PX)',
        'options.outlinePx ?? 0',
      ],
    ],
    test: [security('image-work'), 'outline by the font size'],
  },
  {
    defence: 'text render time limit',
    edits: [
      [
        `${S}media/image/slots.ts`,
        'const timer = setTimeout(() => controller.abort(processingTimeout()), ms);',
        'const timer = undefined;',
      ],
    ],
    test: [security('image-work'), 'processing_timeout past a time limit'],
  },
  {
    defence: 'image tools stop when the client goes, uncharged',
    edits: [
      [
        `${S}routes/tools/tool-routes.ts`,
        'signal: aborted.signal,',
        'signal: new AbortController().signal,',
      ],
      [`${S}routes/tools/tool-routes.ts`, 'aborted.signal.throwIfAborted();', ''],
    ],
    test: [security('image-work'), 'client that went away'],
  },
  // Uploads
  {
    defence: 'empty files refused',
    edits: [
      [`${S}plugins/uploads.ts`, 'if (!upload.path || upload.bytes === 0)', 'if (!upload.path)'],
    ],
    test: [security('uploads'), 'zero-byte'],
  },
  {
    defence: 'per-tool file size limit',
    edits: [
      [
        `${S}plugins/uploads.ts`,
        'request.parts({ limits: { fileSize: maxBytes } })',
        'request.parts({ limits: { fileSize: 1e9 } })',
      ],
    ],
    test: [security('uploads'), 'one byte over'],
  },
  {
    defence: 'limit on form parts',
    edits: [
      [
        `${S}plugins/uploads.ts`,
        'limits: { files: 1, fields: 20, parts: 25,',
        'limits: { files: 1, fields: 5000, parts: 5000,',
      ],
    ],
    test: [security('uploads'), '1000 parts'],
  },
  // ffmpeg
  {
    defence: 'playlists and scripts found anywhere in a file',
    edits: [
      [
        `${S}media/av/probe.ts`,
        "['#EXTM3U', '#EXT-X-', 'ffconcat version']",
        "['never-present-marker']",
      ],
    ],
    test: [`${S}tools/media-tools.test.ts`, 'HLS'],
  },
  {
    defence: 'playlist scan overlaps its reads',
    edits: [
      [
        `${S}media/av/probe.ts`,
        'tail = window.subarray(Math.max(0, window.length - LONGEST));',
        'tail = Buffer.alloc(0);',
      ],
    ],
    test: [security('media'), 'split across'],
  },
  {
    defence: 'allow-list of demuxers',
    edits: [[`${S}media/av/probe.ts`, 'READABLE_DEMUXERS.has(', 'true || READABLE_DEMUXERS.has(']],
    test: [security('media'), 'allow-list'],
  },
  // Webhooks
  {
    defence: 'webhook signature verified',
    edits: [
      [
        `${S}routes/payments/stripe-webhook-routes.ts`,
        'event = stripe.client.webhooks.constructEvent(request.body, signature, secret);',
        'event = JSON.parse(request.body.toString());',
      ],
    ],
    test: [`${S}services/payments/stripe-payments.test.ts`, 'forged'],
  },
  {
    defence: 'webhook replays applied once',
    edits: [
      [
        `${S}services/payments/stripe-events.ts`,
        "if (await deps.payments.wasEventProcessed(event.id)) return 'duplicate';",
        '',
      ],
      // The payment's unique key is the next layer, and the check on the insert the last.
      [
        `${S}db/repositories/payments-repository.ts`,
        "\n        .onConflict((oc) => oc.column('provider_payment_id').doNothing())",
        '',
      ],
      [`${S}services/payments/fulfilment.ts`, 'if (!recorded) return false;', ''],
    ],
    test: [`${S}services/payments/stripe-payments.test.ts`, 'once, however often'],
  },
  {
    defence: 'out-of-order events never move dates back',
    edits: [
      [
        `${S}services/payments/fulfilment.ts`,
        'endDate: end > currentEnd ? end : currentEnd,',
        'endDate: end,',
      ],
      [
        `${S}db/repositories/subscriptions-repository.ts`,
        ".where((eb) => eb.or([eb('last_event_at', 'is', null), eb('last_event_at', '<=', eventAt)]))",
        '',
      ],
    ],
    test: [`${S}services/payments/stripe-payments.test.ts`, 'out of order|arrives late'],
  },
  // HTML to image
  {
    defence: 'sealed browser: no request leaves',
    edits: [
      [
        `${S}media/html/html-renderer.ts`,
        "return route.abort('blockedbyclient');",
        'return route.continue();',
      ],
      // Two more layers, each enough alone for the test's local server: no address resolves,
      // and the context is offline.
      [`${S}media/html/html-renderer.ts`, "'--host-resolver-rules=MAP * ~NOTFOUND',", ''],
      [`${S}media/html/html-renderer.ts`, 'offline: true,', 'offline: false,'],
    ],
    test: [`${S}routes/tools/html-to-image-routes.test.ts`, 'lets nothing out'],
  },
];

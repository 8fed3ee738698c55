// Each defence of docs/security.md: the edit that removes it, and the tests that must then fail.
// [file, text to find (exactly once), replacement]; test: [test file, test name pattern];
// postgres: true when only PostgreSQL can show the hole (check it with TEST_DATABASE_URL set).
const S = 'apps/server/src/';
const security = (name) => `${S}security/${name}.test.ts`;

export const DEFENCES = [
  // Headers and transport
  {
    defence: 'CSP forbids inline script',
    edits: [
      [
        `${S}plugins/security-headers.ts`,
        `scriptSrc: ["'self'"],`,
        `scriptSrc: ["'self'", "'unsafe-inline'"],`,
      ],
    ],
    test: [security('headers'), 'CSP without inline script'],
  },
  {
    defence: 'frame-ancestors none',
    edits: [
      [`${S}plugins/security-headers.ts`, `frameAncestors: ["'none'"],`, `frameAncestors: ['*'],`],
    ],
    test: [security('headers'), 'CSP without inline script'],
  },
  {
    defence: 'HSTS when PUBLIC_URL is https',
    edits: [
      [
        `${S}plugins/security-headers.ts`,
        'strictTransportSecurity: https,',
        'strictTransportSecurity: false,',
      ],
    ],
    test: [security('headers'), 'HSTS'],
  },
  {
    defence: 'downloads are attachments',
    edits: [
      [
        `${S}lib/result-name.ts`,
        'return `attachment; filename="${ascii}"`;',
        'return `inline; filename="${ascii}"`;',
      ],
      [
        `${S}lib/result-name.ts`,
        'return `attachment; filename="${ascii}"; filename*=',
        'return `inline; filename="${ascii}"; filename*=',
      ],
    ],
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
    defence: 'an upload stops at its limit',
    edits: [
      [
        `${S}plugins/uploads.ts`,
        "file.once('limit', () => file.destroy(fileTooLarge(maxBytes)));",
        '',
      ],
    ],
    test: [security('requests'), 'past the limit'],
  },
  {
    defence: 'a batch file stops at the tool limit',
    edits: [[`${S}routes/batches/receive-batch.ts`, 'stopAtLimit(part.file, tool.maxBytes);', '']],
    test: [security('requests'), 'batch file past the tool limit'],
  },
  {
    defence: 'a batch file part under another name refused unread',
    edits: [
      [
        `${S}routes/batches/receive-batch.ts`,
        'throw unknownFilePart(part.fieldname);',
        '{\n        part.file.resume();\n        continue;\n      }',
      ],
    ],
    test: [security('requests'), 'unknown name without reading'],
  },
  {
    defence: "a tool's file part under another name refused unread",
    edits: [
      [
        `${S}plugins/uploads.ts`,
        'throw unknownFilePart(part.fieldname, fileField);',
        '{\n            part.file.resume();\n            continue;\n          }',
      ],
    ],
    test: [security('requests'), "tool's file part under an unknown name"],
  },
  {
    defence: 'a refused upload closes its connection',
    edits: [
      [
        `${S}plugins/lingering-close.ts`,
        'if (read > LINGER_MAX_BYTES) cut();\n    else idle.refresh();',
        'idle.refresh();',
      ],
    ],
    test: [security('requests'), 'only up to its bound'],
  },
  {
    defence: 'framework errors in the envelope',
    edits: [[`${S}app.ts`, '    frameworkErrors,\n', '']],
    test: [security('requests'), 'percent-encodings'],
  },
  {
    defence: 'stalled and slow uploads cut off',
    edits: [[`${S}app.ts`, 'closeStalledRequests(app, config.uploadTimeouts);', '']],
    test: [security('uploads'), 'stalled|drips'],
  },
  // Accounts and tokens
  {
    defence: 'JWT pinned to HS256',
    edits: [
      [`${S}services/token-service.ts`, "if (alg !== 'HS256' || crit !== undefined)", 'if (false)'],
    ],
    test: [security('tokens'), 'algorithm confusion'],
  },
  {
    defence: 'JWT signature and expiry checked',
    edits: [
      [
        `${S}services/token-service.ts`,
        'if (!timingSafeEqual(given, expected)) return undefined;\n      return claimsOf(payload, now());',
        'return decodeJson(payload) as TokenClaims | undefined;',
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
    defence: 'unknown JSON fields refused (sign-up cannot pass isAdmin)',
    edits: [
      [`${S}lib/unknown-fields.ts`, 'if (body) refuseFieldsNotIn(body, request.body);', ''],
      [
        `packages/contracts/src/auth.ts`,
        'export const registerBodySchema = requireFields(\n  z.object({',
        'export const registerBodySchema = requireFields(\n  z.looseObject({',
      ],
      [
        `${S}services/account-service.ts`,
        'country: body.country || null,',
        'country: body.country || null,\n          isAdmin: (body as { isAdmin?: boolean }).isAdmin,',
      ],
    ],
    test: [`${S}routes/auth/auth-routes.test.ts`, 'refuses isAdmin'],
  },
  {
    defence: 'every route guarded where it is declared',
    edits: [[`${S}plugins/auth.ts`, 'route.onRequest = [guard, ...hooks];', 'void guard;']],
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
        'route.onRequest = [guard, ...hooks];',
        'route.preHandler = [guard, ...[route.preHandler ?? []].flat()];',
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
    defence: 'rate limit on recovery',
    edits: [
      [
        `${S}services/services.ts`,
        'CREDENTIAL_ATTEMPTS = { max: 10,',
        'CREDENTIAL_ATTEMPTS = { max: 10_000,',
      ],
    ],
    test: [`${S}routes/auth/password-recovery-routes.test.ts`, 'rate-limits'],
  },
  {
    defence: 'login: failures per IP limited',
    edits: [
      [
        `${S}services/login-attempts.ts`,
        'if (byIp!.count > limits.perIp)',
        'if (byIp!.count > limits.perIp * 1000)',
      ],
    ],
    test: [`${S}routes/auth/auth-routes.test.ts`, 'one IP across many emails'],
  },
  {
    defence: 'login: an account under attack takes one guess per IP',
    edits: [
      [
        `${S}services/login-attempts.ts`,
        'else if (byAccount!.count > limits.perAccount && byPair!.count > 1)',
        'else if (false)',
      ],
    ],
    test: [`${S}routes/auth/auth-routes.test.ts`, 'lets the owner in from a clean IP'],
  },
  {
    defence: "login: others' failures do not lock the owner out",
    edits: [
      [
        `${S}services/login-attempts.ts`,
        'else if (byAccount!.count > limits.perAccount && byPair!.count > 1)',
        'else if (byAccount!.count > limits.perAccount)',
      ],
    ],
    test: [`${S}routes/auth/auth-routes.test.ts`, 'lets the owner in from a clean IP'],
  },
  {
    defence: 'login: a success gives its attempt back and forgets that IP failures',
    edits: [
      [`${S}services/login-attempts.ts`, 'await limiter.giveBack([ipKey, accountKey]);', ''],
      [`${S}services/login-attempts.ts`, 'await limiter.clear([pairKey]);', ''],
    ],
    test: [`${S}routes/auth/auth-routes.test.ts`, 'counts failures, not successes'],
  },
  {
    defence: 'login: an account takes at most 100 failures from anywhere',
    edits: [
      [
        `${S}services/login-attempts.ts`,
        'else if (byAccount!.count > limits.perAccountHard)',
        'else if (false)',
      ],
    ],
    test: [`${S}services/login-attempts.test.ts`, 'caps failures on one account'],
  },
  {
    defence: 'sign-up limited per IP',
    edits: [
      [
        `${S}routes/auth/auth-routes.ts`,
        'await services.signUpAttempts.hit([`register:ip:${clientKey(request.ip)}`]);',
        '',
      ],
    ],
    test: [`${S}routes/auth/auth-routes.test.ts`, 'limits sign-ups per IP'],
  },
  {
    defence: 'limits count an IPv6 client by its /64',
    edits: [
      [
        `${S}services/attempt-limiter.ts`,
        'if (!isIPv6(address)) return address;',
        'return address;',
      ],
    ],
    test: [`${S}routes/auth/auth-routes.test.ts`, 'limits sign-ups per IP'],
  },
  {
    defence: 'emails folded to one spelling',
    edits: [
      [`${S}lib/email.ts`, "email.normalize('NFKC').replace(", 'email.replace('],
      [
        `${S}lib/email.ts`,
        "visible.toLowerCase().normalize('NFKC').trim();",
        'visible.toLowerCase().trim();',
      ],
      [`${S}lib/email.ts`, ".replace(/\\.+$/, '')", ''],
    ],
    test: [`${S}routes/auth/auth-routes.test.ts`, 'trailing-dot and case variants'],
  },
  {
    defence: 'emails without invisible characters',
    edits: [[`${S}lib/email.ts`, ".replace(INVISIBLE, '')", '']],
    test: [`${S}routes/auth/auth-routes.test.ts`, 'invisible characters'],
  },
  {
    defence: 'admin roles: count and change under one lock',
    edits: [
      [
        `${S}db/repositories/users-repository.ts`,
        'await sql`SELECT pg_advisory_xact_lock(${ADMIN_ROLES_LOCK})`.execute(trx);',
        '{}',
      ],
    ],
    test: [security('admins'), 'race to lose the role'],
    postgres: true,
  },
  {
    defence: 'ADMIN_EMAIL lifts a suspension',
    edits: [
      [
        `${S}services/admin-bootstrap.ts`,
        'if (existing.suspended_at !== null) await users.setSuspended(existing.id, false);',
        '',
      ],
    ],
    test: [security('admins'), 'lifts the suspension'],
  },
  {
    defence: 'suspending or reactivating changes only a user not already so',
    edits: [
      [
        `${S}db/repositories/users-repository.ts`,
        ".where('suspended_at', suspended ? 'is' : 'is not', null)",
        '',
      ],
    ],
    test: [security('admins'), 'keeps the sessions of an active user'],
  },
  {
    defence: 'engine versions for admins only',
    edits: [
      [
        `${S}routes/health/health-routes.ts`,
        'engines: admin ? engines : enginesWithoutVersions,',
        'engines,',
      ],
    ],
    test: [security('health'), 'engine versions to an admin only'],
  },
  // Other users' things
  {
    defence: 'API keys revoked on password reset',
    edits: [
      [
        `${S}db/repositories/users-repository.ts`,
        "await trx.deleteFrom('api_keys').where('user_id', '=', id).execute();",
        '',
      ],
    ],
    test: [`${S}routes/auth/password-recovery-routes.test.ts`, 'revokes the API keys'],
  },
  {
    defence: 'jobs: owner only',
    edits: [
      [`${S}services/jobs/job-service.ts`, 'if (!job || job.user_id !== user.id)', 'if (!job)'],
    ],
    test: [`${S}services/jobs/jobs.test.ts`, 'to its owner only'],
  },
  // Jobs
  {
    defence: 'job limits: uploads in progress count (slot claimed first)',
    edits: [
      [
        `${S}db/repositories/jobs-repository.ts`,
        "const UNDER_WAY: Status[] = ['receiving', 'queued', 'running'];",
        "const UNDER_WAY: Status[] = ['queued', 'running'];",
      ],
    ],
    test: [`${S}services/jobs/job-limits.test.ts`, 'exactly 5 of 12'],
  },
  {
    defence: 'job limits: the queue bound in the claim',
    edits: [
      [
        `${S}db/repositories/jobs-repository.ts`,
        "if ((await count(q, WAITING)) >= limits.queue) return 'queue_full';",
        '',
      ],
    ],
    test: [`${S}services/jobs/job-limits.test.ts`, 'exactly JOB_QUEUE_LIMIT'],
  },
  {
    defence: 'job queue: fair turns between users',
    edits: [
      [
        `${S}db/repositories/jobs-repository.ts`,
        "sql`coalesce((SELECT max(s.started_at) FROM jobs s WHERE s.user_id = j.user_id), '')`",
        "'j.created_at'",
      ],
    ],
    test: [`${S}services/jobs/job-fairness.test.ts`, 'before one user'],
  },
  {
    defence: 'job charging: substantial work cancelled is charged',
    edits: [
      [
        `${S}services/jobs/job-service.ts`,
        'return job.progress >= CHARGE_AT_PROGRESS || at - Date.parse(job.started_at) >= CHARGE_AFTER_MS;',
        'return false;',
      ],
    ],
    test: [`${S}services/jobs/job-fairness.test.ts`, 'after substantial work|by progress'],
  },
  {
    defence: 'job cancel: a finished job is left as it is',
    edits: [
      [
        `${S}services/jobs/job-service.ts`,
        'if (!current || hasEnded(current)) return;',
        'if (!current) return;',
      ],
      [
        `${S}services/jobs/job-service.ts`,
        'const ended = await jobs.end(job.id, status, now(), error, charged);\n    if (!ended) return;',
        'const ended = (await jobs.end(job.id, status, now(), error, charged)) ?? { charged };',
      ],
    ],
    test: [`${S}services/jobs/job-fairness.test.ts`, 'moment it completes'],
  },
  {
    defence: 'job results: a gone file answers 410',
    edits: [
      [
        `${S}services/jobs/job-service.ts`,
        "if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;",
        'throw err;',
      ],
    ],
    test: [`${S}services/jobs/job-fairness.test.ts`, 'result file is missing'],
  },
  {
    defence: 'job results: disk allowance per user',
    edits: [
      [`${S}services/jobs/job-runner.ts`, 'await keepWithinAllowance(job.user_id, bytes);', ''],
      [`${S}services/jobs/job-runner.ts`, 'await keepWithinAllowance(job.user_id, 0);', ''],
    ],
    test: [`${S}services/jobs/job-fairness.test.ts`, 'RESULT_DISK_PER_USER'],
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
        "if (!format || (!SHARP_INPUTS.has(format) && !MAGICK_INPUTS[format] && format !== 'heif')) {",
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
    defence: 'SVG filters held to a pixel budget',
    edits: [
      [
        `${S}media/image/pipeline.ts`,
        'if (width * height * filterPrimitives(text) > FILTER_PIXEL_BUDGET)',
        'if (false)',
      ],
    ],
    test: [security('svg-filters'), 'past the pixel budget'],
  },
  {
    defence: 'SVG drawn in a child process killed at the slot limit',
    edits: [
      [
        `${S}media/image/pipeline.ts`,
        'await inImageSlot((slot) => rasterizeSvg(path, raster, MAX_INPUT_PIXELS, slot), signal);',
        'await inImageSlot(() => sharp(path).toFile(raster), signal);',
      ],
    ],
    test: [security('svg-filters'), 'stopped at the slot limit|killed'],
  },
  {
    defence: 'text sized by its drawn area, not by its characters',
    edits: [
      [
        `${S}media/image/text.ts`,
        'const size = await boundedSize(options, maxPixels, signal);',
        'const size = Math.min(options.sizePx, Math.sqrt(maxPixels / [...options.text].length));',
      ],
    ],
    test: [`${S}media/image/text.test.ts`, 'wide glyphs'],
  },
  {
    defence: 'compress results held to the pixel limit',
    edits: [
      [
        `${S}tools/compress.ts`,
        'if (asked.width * asked.height * frames > MAX_INPUT_PIXELS) throw imageTooLarge();',
        '',
      ],
    ],
    test: [`${S}tools/compress.test.ts`, 'past the pixel limit'],
  },
  {
    defence: 'no step holds an image slot past its limit',
    edits: [
      [
        `${S}media/image/slots.ts`,
        'return await withTimeLimit(slotLimitMs, signal, work, () => (counters.overran += 1));',
        'return await work(signal ?? new AbortController().signal);',
      ],
    ],
    test: [security('svg-filters'), 'slot limit'],
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
    edits: [[`${S}media/image/slots.ts`, 'if (active < slots) {', 'if (true) {']],
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
      [
        `${S}tools/watermark-mark.ts`,
        'Math.min(bounds.maxSizePx, (WATERMARK',
        'Math.min(Infinity, (WATERMARK',
      ],
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
    defence: 'text too wide to draw is text_too_large',
    edits: [
      [
        `${S}media/image/text.ts`,
        'throw PAST_CAIRO_LIMIT.test(String((err as Error)?.message)) ? textTooLarge() : err;',
        'throw err;',
      ],
    ],
    test: [security('image-work'), 'too large to draw'],
  },
  {
    defence: 'turned text bounded (text_too_large)',
    edits: [
      [
        `${S}media/image/overlay.ts`,
        'if (width * height > MAX_TURNED_PIXELS) throw textTooLarge();',
        '',
      ],
    ],
    test: [security('image-work'), 'too large to draw'],
  },
  {
    defence: 'text render time limit',
    edits: [
      [`${S}media/image/slots.ts`, 'controller.abort(processingTimeout());\n  }, ms);', '}, 1e9);'],
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
        'limits: { fileSize: maxBytes, files: 1 + extraFiles.length },',
        'limits: { fileSize: 1e9, files: 1 + extraFiles.length },',
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
        `${S}media/av/indirections.ts`,
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
        `${S}media/av/indirections.ts`,
        'this.tail = Buffer.from(window.subarray(Math.max(0, window.length - (LONGEST - 1))));',
        'this.tail = Buffer.alloc(0);',
      ],
    ],
    test: [`${S}media/av/indirections.test.ts`, 'split across two chunks'],
  },
  {
    defence: 'allow-list of demuxers',
    edits: [[`${S}media/av/probe.ts`, 'READABLE_DEMUXERS.has(', 'true || READABLE_DEMUXERS.has(']],
    test: [security('media'), 'allow-list'],
  },
  {
    defence: 'media: frame-size limit at probe',
    edits: [
      [`${S}media/av/probe.ts`, "s.codec_type === 'video' && pixels > limits.maxPixels", 'false'],
      [`${S}media/av/probe.ts`, ", '-max_pixels', String(maxPixels)]", ']'],
    ],
    test: [security('media-bombs'), 'H.264 clip'],
  },
  {
    defence: 'media: ffmpeg held to the pixel limit while decoding',
    edits: [
      [
        `${S}media/av/transcode.ts`,
        "'-max_pixels', String(job.limits.maxPixels), ...THREADS]",
        '...THREADS]',
      ],
    ],
    test: [security('media-bombs'), 'frames grow past'],
  },
  {
    defence: 'media: duration limit at probe',
    edits: [[`${S}media/av/probe.ts`, 'if (longest > limits.maxDurationSeconds)', 'if (false)']],
    test: [security('media-bombs'), 'more hours than'],
  },
  {
    defence: 'media: a trim that keeps nothing to the millisecond refused',
    edits: [
      [
        `${S}media/av/av-plan.ts`,
        'const start = round3(fields.start ?? 0);',
        'const start = fields.start ?? 0;',
      ],
      [`${S}media/av/av-plan.ts`, 'if (round3(end) <= start)', 'if (false)'],
    ],
    test: [`${S}tools/media-options.test.ts`, 'keeps nothing'],
  },
  {
    defence: 'media: output estimated before a job is queued',
    edits: [
      [
        `${S}tools/media-tool.ts`,
        'checkOutputEstimate(\n        { ...probe, durationSeconds: plan.durationSeconds },',
        '((..._: unknown[]) => undefined)(\n        { ...probe, durationSeconds: plan.durationSeconds },',
      ],
    ],
    test: [security('media-bombs'), 'PCM output would pass|exact size passes'],
  },
  {
    defence: 'media: output byte limit while writing',
    edits: [
      [`${S}media/av/transcode.ts`, "'-fs', String(maxOutputBytes), ", ''],
      [
        `${S}media/av/transcode.ts`,
        'if ((await stat(job.output)).size >= maxOutputBytes) throw outputTooLarge();',
        '',
      ],
    ],
    test: [security('media-bombs'), 'byte limit while writing'],
  },
  {
    defence: 'media: a result cut off at the limit is never delivered',
    edits: [
      [
        `${S}media/av/transcode.ts`,
        'if ((await stat(job.output)).size >= maxOutputBytes) throw outputTooLarge();',
        '',
      ],
    ],
    test: [security('media-bombs'), 'byte limit while writing'],
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
  // Payments and quotas
  {
    defence: 'fulfilment locks the subscription',
    edits: [
      [
        `${S}services/payments/fulfilment.ts`,
        'await subscriptions.findByUserForUpdate(paid.userId);',
        'await subscriptions.findByUser(paid.userId);',
      ],
    ],
    test: [`${S}services/payments/sandbox-payments.test.ts`, 'five checkouts are paid at once'],
    postgres: true,
  },
  {
    defence: 'a free plan keeps the current quota period',
    edits: [
      [
        `${S}services/payments/payment-service.ts`,
        'anchorDate: period.start,',
        'anchorDate: new Date(),',
      ],
    ],
    test: [`${S}services/payments/sandbox-payments.test.ts`, 'free plan is chosen again'],
  },
  {
    defence: "a paid plan's cycle at 0 is not sold",
    edits: [
      [
        `${S}services/payments/payment-service.ts`,
        'const free = isFreePlan(fees);',
        'const free = feeOf(plan, billingType) === 0;',
      ],
    ],
    test: [`${S}services/payments/sandbox-payments.test.ts`, 'billing_cycle_unavailable'],
  },
  {
    defence: 'sandbox in production warned',
    edits: [
      [
        `${S}config.ts`,
        "sandboxInProduction: e.NODE_ENV === 'production' && e.PAYMENT_PROVIDER === 'sandbox',",
        'sandboxInProduction: false,',
      ],
    ],
    test: [`${S}routes/admin/admin-routes.test.ts`, 'sandbox takes payments in production'],
  },
  // HTML to image
  {
    defence: 'sealed browser: no request leaves',
    edits: [
      [
        `${S}media/html/chromium-pages.ts`,
        "return route.abort('blockedbyclient');",
        'return route.continue();',
      ],
      // Two more layers, each enough alone for the test's local server: no address resolves,
      // and the context is offline.
      [`${S}media/html/chromium-pages.ts`, "'--host-resolver-rules=MAP * ~NOTFOUND',", ''],
      [`${S}media/html/chromium-pages.ts`, 'offline: true,', 'offline: false,'],
    ],
    test: [`${S}routes/tools/html-to-image-routes.test.ts`, 'lets nothing out'],
  },
  {
    defence: 'HTML browser: one owner, a stale browser never clears its successor',
    edits: [
      [
        `${S}media/html/browser-owner.ts`,
        'watchdog?.stop();\n          if (this.current === launching) this.forget();',
        'watchdog?.stop();\n          this.forget();',
      ],
    ],
    test: [`${S}media/html/browser-owner.test.ts`, 'never clears the successor'],
  },
  {
    defence: 'HTML browser: one launch at a time',
    edits: [
      [
        `${S}media/html/browser-owner.ts`,
        'this.current ??= this.launch();',
        'this.current = this.launch();',
      ],
    ],
    test: [security('html'), 'replaced by exactly one'],
  },
  {
    defence: 'HTML render timeout ends only its own page',
    edits: [
      [
        `${S}media/html/chromium-pages.ts`,
        'if (slot) await this.discard(slot);',
        'if (slot) await this.owner.retire(slot.browser);',
      ],
    ],
    test: [security('html'), 'ends only its own page|innocent render in flight'],
  },
  {
    defence: 'HTML renders: fair turns between users',
    edits: [
      [
        `${S}media/html/render-turns.ts`,
        'this.waiting.splice(this.fairestIndex(), 1)',
        'this.waiting.splice(0, 1)',
      ],
    ],
    test: [security('html-turns'), 'before one user'],
  },
  {
    defence: 'HTML renders: a cap per user',
    edits: [
      [
        `${S}media/html/render-turns.ts`,
        'if (!wait && this.inFlight(userId) >= this.options.perUser) {',
        'if (!wait && this.options.perUser < 0) {',
      ],
    ],
    test: [security('html-turns'), 'too_many_renders'],
  },
  {
    defence: "upscale model: one upscale of a user's runs at a time, the next left queued",
    edits: [[`${S}tools/upscale.ts`, 'oneAtATime: true,', 'oneAtATime: false,']],
    test: [security('upscale-turns'), 'one at a time'],
  },
  {
    defence: 'model turns: a job waits its turn rather than being refused',
    edits: [
      [
        `${S}media/html/render-turns.ts`,
        'if (!wait && this.inFlight(userId) >= this.options.perUser) {',
        'if (this.inFlight(userId) >= this.options.perUser) {',
      ],
    ],
    test: [security('upscale-turns'), 'lets a job wait past its cap'],
  },
  {
    defence: 'turns: a caller that leaves stops waiting',
    edits: [
      [
        `${S}media/html/render-turns.ts`,
        "signal?.addEventListener('abort', onAbort, { once: true });",
        '',
      ],
    ],
    test: [security('upscale-turns'), 'lets a job wait past its cap'],
  },
  {
    defence: 'repeated timeouts back a user off',
    edits: [
      [
        `${S}routes/tools/metered.ts`,
        'throw services.timeouts.record(user.id, mapError(err));',
        'throw mapError(err);',
      ],
    ],
    test: [security('timeouts'), '4th request after 3 timeouts'],
  },
  {
    defence: 'HTML renderer memory watchdog',
    edits: [[`${S}media/html/renderer-memory-watchdog.ts`, "process.kill(pid, 'SIGKILL');", '']],
    test: [security('html'), 'typed arrays'],
  },
  {
    // Both layers: V8's heap limit alone stops JavaScript arrays, and so does the watchdog.
    defence: 'HTML render memory capped (V8 heap and watchdog)',
    edits: [
      [
        `${S}media/html/chromium-pages.ts`,
        '`--js-flags=--max-old-space-size=${RENDER_HEAP_MB}`,',
        '',
      ],
      [`${S}media/html/renderer-memory-watchdog.ts`, "process.kill(pid, 'SIGKILL');", ''],
    ],
    test: [security('html'), 'JavaScript arrays'],
  },
  // Nothing one account sends can stop, freeze or starve the server
  {
    defence: 'batch zip: each result opened before its entry is added',
    edits: [
      [
        `${S}services/batches/results-zip.ts`,
        'const handle = await open(path).catch(() => undefined);',
        'const handle = await open(path);',
      ],
    ],
    test: [security('batch-zip'), 'deleted while it is read|evicted before the download'],
  },
  {
    defence: 'ImageMagick: 50 MP, read from the header',
    edits: [
      [
        `${S}media/image/pipeline.ts`,
        'if ((declaredPixels(bytes, format) ?? 0) > MAGICK_MAX_PIXELS) throw magickTooLarge();',
        '',
      ],
      [`${S}media/image/magick.ts`, 'if (info.width * info.height > maxPixels)', 'if (false)'],
      [
        `${S}media/image/magick.ts`,
        'm.ResourceLimits.area = BigInt(maxPixels);',
        'm.ResourceLimits.area = BigInt(4 * maxPixels);',
      ],
    ],
    test: [security('decoders'), 'RLE8 BMP'],
  },
  {
    defence: 'HEIC: every top-level image counted',
    edits: [
      [
        `${S}media/image/heif.ts`,
        'images.reduce((sum, image) => sum + image.pixels, 0)',
        'images[0]!.pixels',
      ],
    ],
    test: [security('decoders'), 'second image'],
  },
  {
    defence: 'HEIC: held to the pixel limit, not a side of 16384',
    edits: [[`${S}media/image/heif.ts`, '0) > MAX_INPUT_PIXELS)', '0) > 16_384 * 16_384)']],
    test: [security('decoders'), 'grid bomb'],
  },
  {
    defence: 'HEIC: real sizes counted from the streams and grids, not the ispe boxes',
    edits: [
      [
        `${S}media/image/heif.ts`,
        'if (real.coded > MAX_INPUT_PIXELS || real.canvas > MAX_INPUT_PIXELS) throw imageTooLarge();',
        '',
      ],
    ],
    test: [security('decoders'), 'ispe boxes lie'],
  },
  {
    defence: 'HEIC: every picture of a stream counted',
    edits: [
      [
        `${S}media/image/heif-coded.ts`,
        'coded: nals.largest * nals.pictures',
        'coded: nals.largest * Math.min(1, nals.pictures)',
      ],
    ],
    test: [security('decoders'), 'every picture'],
  },
  {
    defence: 'HEIC: a grid counted at the canvas its data asks for',
    edits: [[`${S}media/image/heif.ts`, ' || real.canvas > MAX_INPUT_PIXELS', '']],
    test: [security('decoders'), '12000×12000 canvas'],
  },
  {
    defence: 'image to video: frames at most 1920 px a side',
    edits: [
      [
        `${S}tools/image-output.ts`,
        'export const VIDEO_MAX_SIDE = 1920;',
        'export const VIDEO_MAX_SIDE = 16_384;',
      ],
    ],
    test: [security('decoders'), 'into a clip'],
  },
  {
    defence: 'image to video: an animation held to the duration limit',
    edits: [[`${S}tools/image-output.ts`, 'if (seconds > maxSeconds)', 'if (false)']],
    test: [security('media-bombs'), 'frame delays run past the limit'],
  },
  {
    defence: "a done job's upload removed at once",
    edits: [
      [`${S}services/jobs/job-runner.ts`, 'await keepOnlyResult(config.dataDir, id, file);', ''],
    ],
    test: [`${S}services/jobs/job-fairness.test.ts`, 'removes the upload'],
  },
];

import type { ExtraFile, Upload } from '../plugins/uploads.js';
import type { Applied, ErrorCode, Service, ToolId } from '@refract/contracts';
import type { ZodType } from 'zod';
import type { Config } from '../config.js';
import type { Engines } from '../media/engines.js';

export interface ToolResult {
  /** The result file, inside the request's work directory. */
  path: string;
  contentType: string;
  /** The download name: the upload's (result-name.ts), else a fixed one (rotated-image.png). */
  filename: string;
  headers?: Record<string, string>;
}

export interface ToolContext<Fields> {
  input: string;
  inputBytes: number;
  /** The uploaded file's own name, untrusted (e.g. for a result named after it). */
  inputName?: string;
  fields: Fields;
  /** The declared extra file parts that came (ToolDefinition.extraFiles), by field: their paths. */
  extraFiles?: Record<string, string>;
  /** A private temp directory, removed after the response whatever happens. */
  workDir: string;
  engines: Engines;
  config: Config;
  /** Told how far the work is, 0 to 1 (jobs report it to their watchers). */
  onProgress(fraction: number): void;
  /** Aborts when the job is cancelled, or the client of a request tool goes away: stop and throw. */
  signal: AbortSignal;
  /**
   * Whom the work is for, for a user's share of a scarce engine (the upscale model's turns):
   * past it a request is refused with 429 (`waits: false`), a job waits its turn (`waits: true`).
   */
  owner?: { userId: string; waits: boolean };
}

/** One tool: its endpoint, upload limit, form fields, the service it charges and what it does. */
export interface ToolDefinition<Fields = any> {
  id: ToolId;
  path: string;
  /** One line for the API reference. */
  summary: string;
  /** The result's content types for the reference; by default image/*, audio/* or video/* by the upload. */
  produces?: readonly string[];
  /** Error codes of this tool alone, for the reference (the common ones are in openapi/route-docs.ts). */
  errors?: readonly ErrorCode[];
  fileField: string;
  /**
   * An image tool's own largest upload (a user's plan may allow less: quotas.fileLimit). Audio
   * and video tools have none: their plan's size decides, within the server's ceiling.
   */
  maxBytes?: number;
  /** Optional second file parts (e.g. a logo), each with its own limit. */
  extraFiles?: readonly ExtraFile[];
  fields: ZodType<Fields>;
  service(fields: Fields): Service;
  /** Checks that need no file (e.g. an output format this server cannot write), before upload. */
  precheck?(fields: Fields, engines: Engines, config: Config): void | Promise<void>;
  /** Checks the uploaded file before anything is charged or queued (e.g. probing media). */
  inspect?(
    input: string,
    fields: Fields,
    config: Config,
    /** What the upload's scan found as it streamed (plugins/uploads.ts); else the file is read. */
    upload?: Pick<Upload, 'containsIndirection'>,
    /** What the options will do to this file (the bitrate chosen, …), kept in the job's state. */
  ): Promise<void | { applied?: Applied }>;
  /**
   * Audio, video and upscale run as queued jobs (services/jobs), which a page follows with
   * progress and may cancel; other image tools run inside the request.
   */
  runsAs?: 'request' | 'job';
  /** Each user runs one job of this tool at a time; the next waits queued (a scarce engine). */
  oneAtATime?: boolean;
  run(context: ToolContext<Fields>): Promise<ToolResult>;
  /** Turns an engine's own errors into ours (e.g. a damaged image into invalid_image). */
  mapError?(err: unknown): unknown;
}

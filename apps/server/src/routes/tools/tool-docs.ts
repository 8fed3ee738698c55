import type { FastifyContextConfig } from 'fastify';
import { IMAGE_TOOL_ERRORS, MEDIA_TOOL_ERRORS } from '../../openapi/route-docs.js';
import type { ToolDefinition } from '../../tools/tool-definition.js';

/** A tool route's entry in the OpenAPI document, from its registry definition. */
export function toolDocs(tool: ToolDefinition) {
  const job = tool.runsAs === 'job';
  const config: FastifyContextConfig = {
    access: 'userOrKey',
    upload: {
      fileField: tool.fileField,
      maxBytes: tool.maxBytes,
      fields: tool.fields,
      extraFiles: tool.extraFiles,
    },
    produces: {
      contentTypes: tool.produces ?? [`${tool.fileField}/*`],
      description: 'The result file, as an attachment',
    },
    metered: true,
    errors: [...(job ? MEDIA_TOOL_ERRORS : IMAGE_TOOL_ERRORS), ...(tool.errors ?? [])],
  };
  const schema = {
    summary: tool.summary,
    tags: [job ? 'Audio and video tools' : 'Image tools'],
  };
  return { config, schema };
}

/**
 * The handler set the official MCP conformance suite (@modelcontextprotocol/conformance) calls,
 * loaded with HANDLER_SET=conformance. The names and payloads are the suite's fixtures; keep the
 * order of each list stable, it is the order of tools/list, prompts/list and resources/list.
 */
import type { HandlerSet } from '@durable-mcp/handlers';
import {
  audioContent,
  embeddedResource,
  errorHandling,
  imageContent,
  multipleContentTypes,
  simpleText,
} from './content-tools';
import { customHeaderParams } from './custom-header-tool';
import { loggingTool, missingCapability, streamingElicitation } from './diagnostics';
import { jsonSchema202012 } from './json-schema-tool';
import {
  inputRequiredCapabilities,
  inputRequiredElicitation,
  inputRequiredListRoots,
  inputRequiredSampling,
} from './input-required-tools';
import {
  inputRequiredMultiRound,
  inputRequiredMultipleInputs,
  inputRequiredRequestState,
  inputRequiredTamperedState,
} from './input-required-state-tools';
import { elicitation, elicitationDefaults, elicitationEnums, sampling } from './legacy-tools';
import { toolWithLogging, toolWithProgress, testReconnection } from './notification-tools';
import {
  inputRequiredPrompt,
  promptWithArguments,
  promptWithEmbeddedResource,
  promptWithImage,
  simplePrompt,
} from './prompts';
import { staticBinary, staticText, templateData, watchedResource } from './resources';
import {
  confirmDelete,
  failingJob,
  greetTool,
  multiInput,
  protocolErrorJob,
  slowCompute,
  toolWithTask,
} from './task-tools';

export const conformanceHandlers: HandlerSet = {
  name: 'conformance',
  instructions: 'Fixtures for the MCP conformance suite.',
  tools: [
    simpleText,
    imageContent,
    audioContent,
    embeddedResource,
    multipleContentTypes,
    errorHandling,
    toolWithProgress,
    toolWithLogging,
    sampling,
    elicitation,
    elicitationDefaults,
    elicitationEnums,
    missingCapability,
    streamingElicitation,
    loggingTool,
    inputRequiredElicitation,
    inputRequiredSampling,
    inputRequiredListRoots,
    inputRequiredRequestState,
    inputRequiredMultipleInputs,
    inputRequiredMultiRound,
    inputRequiredTamperedState,
    inputRequiredCapabilities,
    jsonSchema202012,
    testReconnection,
    customHeaderParams,
    greetTool,
    slowCompute,
    failingJob,
    protocolErrorJob,
    confirmDelete,
    multiInput,
    toolWithTask,
  ],
  prompts: [simplePrompt, promptWithArguments, promptWithEmbeddedResource, promptWithImage, inputRequiredPrompt],
  resources: [staticText, staticBinary, watchedResource],
  resourceTemplates: [templateData],
};

/**
 * A registered tool's schemas: the JSON Schemas `tools/list` shows, converted by the SDK itself so
 * they are the ones an SDK server would list, and the Standard Schema checks the SDK's `tools/call`
 * runs on the arguments and on `structuredContent`.
 *
 * The conversion is the one place this adapter reads members the SDK does not document: the SDK
 * exports no converter, and `McpServer.toolInputSchemaJson()` (`@internal`) and
 * `RegisteredTool.outputSchemaJson` (`@hidden`) are what its own `tools/list` and `tools/call` use.
 * sdk/schemas.test.ts compares the result with what a real SDK server lists, so an SDK release that
 * changes them fails that test rather than a deployment.
 */
import type {
  McpServer as SdkMcpServer,
  RegisteredTool,
  StandardSchemaV1,
  StandardSchemaWithJSON,
} from '@modelcontextprotocol/server';

type JsonSchema = Record<string, unknown>;

export class ToolSchemaError extends Error {
  override readonly name = 'ToolSchemaError';
}

const JSON_SCHEMA_TARGET = 'draft-2020-12';

/** Why `schema` did not convert, asked of the schema library itself (the SDK swallows the reason). */
function conversionFailure(schema: StandardSchemaWithJSON, io: 'input' | 'output'): string {
  try {
    schema['~standard'].jsonSchema[io]({ target: JSON_SCHEMA_TARGET });
    return `its ${io}Schema does not convert to a JSON Schema of an object`;
  } catch (error) {
    return `its ${io}Schema does not convert to JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * The `inputSchema` and `outputSchema` tools/list shows for the tool `name` registered on `sdk`.
 * A non-object `outputSchema` root is refused: the SDK lists and projects such a tool's results
 * differently per protocol era (SEP-2106), and a durable handler does not know the era.
 */
export function listedSchemas(
  sdk: SdkMcpServer,
  name: string,
  registered: RegisteredTool,
): { inputSchema: JsonSchema; outputSchema?: JsonSchema } {
  if (typeof (sdk as { toolInputSchemaJson?: unknown }).toolInputSchemaJson !== 'function') {
    throw new ToolSchemaError(
      'this @modelcontextprotocol/server has no McpServer.toolInputSchemaJson(): @durable-mcp/handlers/sdk is built against 2.4',
    );
  }
  const inputSchema = sdk.toolInputSchemaJson(name);
  if (inputSchema === undefined) {
    const why = registered.inputSchema ? conversionFailure(registered.inputSchema, 'input') : 'it is not registered';
    throw new ToolSchemaError(`tool ${name}: ${why}`);
  }
  if (!registered.outputSchema) return { inputSchema };
  const outputSchema = registered.outputSchemaJson;
  if (outputSchema === undefined) {
    throw new ToolSchemaError(`tool ${name}: ${conversionFailure(registered.outputSchema, 'output')}`);
  }
  if (outputSchema.type !== 'object') {
    throw new ToolSchemaError(
      `tool ${name}: its outputSchema must describe an object (got type ${JSON.stringify(outputSchema.type)}); ` +
        'wrap it in z.object({ ... })',
    );
  }
  return { inputSchema, outputSchema };
}

/** The SDK's text for a Standard Schema issue list (`formatIssue` in the SDK's core). */
export function formatIssues(issues: ReadonlyArray<StandardSchemaV1.Issue>): string {
  return issues
    .map((issue) =>
      issue.path?.length
        ? `${issue.path.map((p) => String(typeof p === 'object' ? p.key : p)).join('.')}: ${issue.message}`
        : issue.message,
    )
    .join(', ');
}

/**
 * The arguments as the tool's callback receives them: parsed by its schema, with defaults,
 * transforms and coercions applied; throws the SDK's `Input validation error: ...`.
 */
export async function parseArguments(
  name: string,
  schema: StandardSchemaWithJSON,
  args: Record<string, unknown> | undefined,
): Promise<unknown> {
  const parsed = await schema['~standard'].validate(args ?? {});
  if (parsed.issues?.length) {
    throw new Error(`Input validation error: Invalid arguments for tool ${name}: ${formatIssues(parsed.issues)}`);
  }
  return (parsed as StandardSchemaV1.SuccessResult<unknown>).value;
}

/** The SDK's check of a result's `structuredContent` against the tool's `outputSchema`. */
export async function checkStructuredContent(
  name: string,
  schema: StandardSchemaWithJSON,
  structuredContent: unknown,
): Promise<void> {
  if (structuredContent === undefined) {
    throw new Error(
      `Output validation error: Tool ${name} has an output schema but no structured content was provided`,
    );
  }
  const checked = await schema['~standard'].validate(structuredContent);
  if (checked.issues?.length) {
    throw new Error(
      `Output validation error: Invalid structured content for tool ${name}: ${formatIssues(checked.issues)}`,
    );
  }
}

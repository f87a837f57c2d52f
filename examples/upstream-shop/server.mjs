// upstream-shop: an MCP server of its own, written with the official TypeScript SDK (2.x) and
// nothing of durable-mcp, that durable-mcp stands in front of (docs/gateway.md). It speaks the
// 2026-07-28 revision only, keeps nothing between calls, and asks for input the way that revision
// has every server do: it returns an InputRequiredResult and is called again with the answers.
//
//   PORT=8000 node server.mjs            # then: durable-mcp dev --upstream http://127.0.0.1:8000/mcp
import http from 'node:http';
import { createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const PRICES = { tea: 4, coffee: 5, cake: 7 };

function shop() {
  const server = new McpServer({ name: 'upstream-shop', version: '1.0.0' });
  server.registerTool(
    'quote',
    {
      description: 'The price of some of an item.',
      inputSchema: z.object({ item: z.enum(['tea', 'coffee', 'cake']), quantity: z.number().int().positive() }),
    },
    ({ item, quantity }) => ({
      content: [{ type: 'text', text: `${quantity} ${item}: ${PRICES[item] * quantity} EUR` }],
    }),
  );
  server.registerTool(
    'place_order',
    {
      description: 'Places an order once the customer confirms the delivery address.',
      inputSchema: z.object({ item: z.enum(['tea', 'coffee', 'cake']), quantity: z.number().int().positive() }),
    },
    ({ item, quantity }, ctx) => {
      const answer = ctx.mcpReq.inputResponses?.address;
      if (answer === undefined)
        return inputRequired({
          inputRequests: {
            address: inputRequired.elicit({
              message: `Where should ${quantity} ${item} go?`,
              requestedSchema: {
                type: 'object',
                properties: { address: { type: 'string', title: 'Delivery address', minLength: 3 } },
                required: ['address'],
              },
            }),
          },
        });
      if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'No order placed.' }], isError: true };
      // A real shop applies this once per `_meta.idempotencyKey`: a round may call it again.
      const total = PRICES[item] * quantity;
      return {
        content: [{ type: 'text', text: `Ordered ${quantity} ${item} (${total} EUR) to ${answer.content.address}.` }],
      };
    },
  );
  return server;
}

const handler = createMcpHandler(shop, { legacy: 'reject' });

const server = http.createServer(async (req, res) => {
  if (req.url === '/healthz') return void res.writeHead(200).end('ok');
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const response = await handler.fetch(
    new Request(`http://${req.headers.host ?? 'localhost'}${req.url}`, {
      method: req.method,
      headers,
      body: hasBody ? Buffer.concat(chunks) : undefined,
    }),
  );
  res.writeHead(response.status, [...response.headers]);
  res.end(Buffer.from(await response.arrayBuffer()));
});

server.listen(Number(process.env.PORT ?? 8000), process.env.HOST ?? '127.0.0.1', () =>
  process.stdout.write(
    `upstream-shop listening on http://${process.env.HOST ?? '127.0.0.1'}:${server.address().port}/mcp\n`,
  ),
);
const stop = () => server.close(() => handler.close().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

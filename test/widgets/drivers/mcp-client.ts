/** An MCP stdio client on @modelcontextprotocol/sdk whose tool calls resolve with the text or reject with it. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** A connected MCP server: its tool names and a call that rejects with the tool's own words on `isError`. */
export interface McpTools {
  readonly tools: ReadonlySet<string>;
  call(name: string, args: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/** Spawns `command args` in `cwd` with `env` and connects as client `clientName`. */
export async function connectMcp(options: {
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string>;
  clientName: string;
}): Promise<McpTools> {
  const transport = new StdioClientTransport({
    command: options.command,
    args: options.args,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.env === undefined ? {} : { env: options.env }),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-4000);
  });
  const client = new Client({ name: options.clientName, version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`${options.clientName}: could not connect to ${options.args.join(' ')}: ${stderr}`, {
      cause: error,
    });
  }
  const { tools } = await client.listTools();
  return {
    tools: new Set(tools.map((t) => t.name)),
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
      const content = Array.isArray(result.content) ? result.content : [];
      const text = content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
      if (result.isError) throw new Error(text || `${name} failed without a message`);
      return text;
    },
    close: () => client.close(),
  };
}

// Crafted JSON-RPC lines for `athena-bridge mcp`, shared by bridge/test/hostile.test.mjs (the
// regression tests) and bench/hostile.mjs (the before/after table). Each line once aborted or
// crashed the process, or cost far more than its size.

/** `open` + value nested `depth` arrays deep + `close`, built without recursion. */
export function nested(depth, open = '', close = '') {
  return `${open}${'['.repeat(depth)}1${']'.repeat(depth)}${close}`;
}

const rpc = (o) => JSON.stringify({ jsonrpc: '2.0', ...o });
const INVALID_REQUEST = -32600, INVALID_PARAMS = -32602, UNSUPPORTED_PROTOCOL_VERSION = -32022;
/** The MCP 2026-07-28 per-request `_meta`, with `over` replacing or adding keys. */
const envelope = (over = {}) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, ...over,
});

export const MCP_ATTACKS = [
  { name: '"jsonrpc": 2', line: () => '{"jsonrpc":2,"id":1,"method":"ping"}', code: INVALID_REQUEST, message: /expected a JSON-RPC 2\.0 object/, expect: 'invalid request' },
  { name: '"jsonrpc": null', line: () => '{"jsonrpc":null,"id":1,"method":"ping"}', code: INVALID_REQUEST, message: /expected a JSON-RPC 2\.0 object/, expect: 'invalid request' },
  {
    name: 'initialize with a numeric protocolVersion',
    line: () => rpc({ id: 1, method: 'initialize', params: { protocolVersion: 20250618, capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    // Answered, with the newest version we speak (the client's is unusable).
    code: null, message: null, expect: 'answered',
  },
  {
    name: 'initialize with a non-string clientInfo.name',
    line: () => rpc({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: { evil: true }, version: 1 } } }),
    code: null, message: null, expect: 'answered',
  },
  {
    name: 'an id nested 80,000 levels deep (160 KB)',
    line: () => `{"jsonrpc":"2.0","method":"ping","id":${nested(80_000)}}`,
    code: INVALID_REQUEST, message: /nested 80001 levels deep; at most 64/, expect: 'refused before parsing',
  },
  {
    name: 'an invalid request whose id is nested 80,000 levels deep (echoed in the error)',
    line: () => `{"jsonrpc":"1.0","method":"ping","id":${nested(80_000)}}`,
    code: INVALID_REQUEST, message: /nested 80001 levels deep; at most 64/, expect: 'refused before parsing',
  },
  {
    name: 'a progressToken nested 80,000 levels deep',
    line: () => `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"snapshot","arguments":{},"_meta":{"progressToken":${nested(80_000)}}}}`,
    code: INVALID_REQUEST, message: /levels deep; at most 64/, expect: 'refused before parsing',
  },
  {
    name: 'a progressToken that is an object',
    line: () => rpc({ id: 2, method: 'tools/call', params: { name: 'snapshot', arguments: {}, _meta: { progressToken: { a: 1 } } } }),
    code: INVALID_PARAMS, message: /progressToken must be a string or an integer/, expect: 'invalid params',
  },
  {
    name: '2026-07-28 _meta whose protocolVersion is a number',
    line: () => rpc({ id: 5, method: 'server/discover', params: { _meta: envelope({ 'io.modelcontextprotocol/protocolVersion': 20260728 }) } }),
    code: INVALID_PARAMS, message: /protocolVersion"\] must be a string/, expect: 'invalid params',
  },
  {
    name: '2026-07-28 _meta naming a revision nobody speaks',
    line: () => rpc({ id: 5, method: 'tools/list', params: { _meta: envelope({ 'io.modelcontextprotocol/protocolVersion': '1900-01-01' }) } }),
    code: UNSUPPORTED_PROTOCOL_VERSION, message: /^Unsupported protocol version "1900-01-01": athena-delta serves 2026-07-28 per request/,
    data: { supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'], requested: '1900-01-01' },
    expect: 'unsupported protocol version, with the supported list',
  },
  {
    name: '2026-07-28 _meta whose clientCapabilities is a string',
    line: () => rpc({ id: 5, method: 'tools/list', params: { _meta: envelope({ 'io.modelcontextprotocol/clientCapabilities': 'all' }) } }),
    code: INVALID_PARAMS, message: /must carry _meta\["io\.modelcontextprotocol\/clientCapabilities"\], an object/, expect: 'invalid params',
  },
  {
    name: '2026-07-28 _meta whose clientInfo name is an object',
    line: () => rpc({ id: 5, method: 'server/discover', params: { _meta: envelope({ 'io.modelcontextprotocol/clientInfo': { name: { evil: true } } }) } }),
    code: null, message: null, expect: 'answered',
  },
  {
    name: '_meta that is an array',
    line: () => rpc({ id: 5, method: 'tools/list', params: { _meta: ['io.modelcontextprotocol/protocolVersion'] } }),
    code: INVALID_PARAMS, message: /params\._meta must be an object/, expect: 'invalid params',
  },
  {
    name: 'a 2026-07-28 protocolVersion nested 80,000 levels deep',
    line: () => `{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":${nested(80_000)}}}}`,
    code: INVALID_REQUEST, message: /levels deep; at most 64/, expect: 'refused before parsing',
  },
  {
    name: 'an id that is an object',
    line: () => rpc({ id: { a: 1 }, method: 'ping' }),
    code: INVALID_REQUEST, message: /id must be a string or an integer/, expect: 'invalid request, id not echoed',
  },
  {
    name: 'a 16 MiB batch of 5.6 M items',
    line: () => `[${'1,'.repeat(5_600_000)}1]`,
    code: INVALID_REQUEST, message: /a batch of 5600001 messages; at most 32/, expect: 'refused before parsing',
  },
  {
    name: 'a batch of 33 pings',
    line: () => `[${Array.from({ length: 33 }, (_, i) => rpc({ id: i + 1, method: 'ping' })).join(',')}]`,
    code: INVALID_REQUEST, message: /a batch of 33 messages; at most 32/, expect: 'refused',
  },
  {
    name: 'tools/call whose params.name is a number',
    line: () => rpc({ id: 3, method: 'tools/call', params: { name: 7, arguments: {} } }),
    code: INVALID_PARAMS, message: /tools\/call needs params\.name/, expect: 'invalid params',
  },
  {
    name: 'wait_for with ms = 9.2e19 (a float beyond 64 bits; found by fuzz/jsonrpc.cpp)',
    line: () => '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"wait_for","arguments":{"ms":92233720360854775807}}}',
    code: INVALID_PARAMS, message: /argument 'ms' must be integer/, expect: 'invalid params',
  },
  {
    name: 'wait_for with ms = 2^63 - 1',
    line: () => `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"wait_for","arguments":{"ms":9223372036854775807}}}`,
    // No Chrome in this sandbox: the call is refused as not connected, without overflow.
    code: null, message: null, expect: 'answered',
  },
];

/**
 * Transport-level errors of `/mcp`, answered as JSON-RPC error objects (JSON-RPC 2.0 §5.1) with an
 * HTTP status by the JSON-RPC surface of the error catalogue (src/errors/surfaces/jsonrpc.ts).
 * Authorization failures are not these: they are catalogue errors with a `WWW-Authenticate`
 * challenge (bearer.ts).
 */
export { JsonRpcHttpError, sendJsonRpcError } from '../../errors/surfaces/jsonrpc.js';

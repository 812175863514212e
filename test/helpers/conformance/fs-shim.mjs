// Node 20 lacks fs.globSync (Node 22+). @modelcontextprotocol/conformance imports it only for its
// `tier-check` command, which these tests never run; the shim re-exports node:fs and adds a
// globSync that says so if it is ever called.
export * from 'node:fs';
import fs from 'node:fs';
export default fs;
export function globSync() {
  throw new Error('fs.globSync is not available on Node 20 (conformance tier-check is not supported here)');
}

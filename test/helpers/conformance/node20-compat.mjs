// `node --import ./node20-compat.mjs …`: registers the resolve hook (research §1, Node 20 shim).
import { register } from 'node:module';
register('./node20-hooks.mjs', import.meta.url);

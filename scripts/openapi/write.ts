// pnpm openapi: writes docs/openapi.json from the SDK's schemas.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderOpenApiDocument } from './build-document.js';

const target = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));
writeFileSync(target, renderOpenApiDocument());
process.stdout.write(`wrote ${target}\n`);

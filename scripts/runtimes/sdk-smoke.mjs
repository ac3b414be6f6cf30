// The SDK smoke (smoke-checks.mjs) on a runtime that runs a file as is: Node, Bun, Deno.
// PROFILE_ARTICLES_BASE_URL names the mock.
import * as sdk from '../../packages/sdk/dist/index.js';
import { sdkSmoke } from './smoke-checks.mjs';

const baseUrl =
  globalThis.process?.env?.PROFILE_ARTICLES_BASE_URL ?? globalThis.Deno?.env.get('PROFILE_ARTICLES_BASE_URL');
const agent = globalThis.Bun ? 'bun' : globalThis.Deno ? 'deno' : 'node';
const runtime = globalThis.Bun
  ? `bun ${Bun.version}`
  : globalThis.Deno
    ? `deno ${Deno.version.deno}`
    : `node ${process.version}`;

console.log(await sdkSmoke(sdk, { baseUrl, runtime, agent }));

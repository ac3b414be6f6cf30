// The guides `profile-articles help <topic>` prints (docs/guides/<topic>.md, copied into the
// package by the build). Bundled into the start-up file: --help lists them without loading more.
export const GUIDE_TOPICS = {
  environment: 'every environment variable the CLI reads',
  'exit-codes': 'what each exit code means, and errors under --json',
  formatting: 'output for people and for programs: --json, --jq, --verbose',
  bulk: 'batch: many profiles, paced, within a budget, resumable',
  mock: 'the local mock server: try every command for free',
} as const;

export type GuideTopic = keyof typeof GUIDE_TOPICS;

export const isGuideTopic = (name: string): name is GuideTopic => Object.hasOwn(GUIDE_TOPICS, name);

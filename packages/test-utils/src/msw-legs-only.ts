// Setup of vitest.config.ts's "msw 2" project, which runs the contract suites again with msw 2
// in msw 3's place: only the tests that go through msw (a describe block or test named "… over
// msw", "… msw …") run there. The other legs of the same files ran in the main project.
import * as msw from 'msw';
import { beforeEach } from 'vitest';

// The project proves nothing unless `msw` is msw 2 here: msw 3 exports graphql from msw/graphql.
if (!('graphql' in msw)) throw new Error('the "msw 2" project resolved msw to msw 3: see vitest.config.ts');

beforeEach(({ task, skip }) => {
  const names: string[] = [];
  for (let at: { name: string; suite?: { name: string } | undefined } | undefined = task; at; at = at.suite)
    names.push(at.name);
  if (!names.some((name) => /\bmsw\b/.test(name))) skip('not through msw');
});

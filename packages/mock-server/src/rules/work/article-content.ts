// Articles that look real: a title from the slug, Markdown with citation references that
// match the sources, and an infobox. Deterministic for a slug and version, different per version.
import type { Source } from '@profile-articles/sdk/schemas';

const ROLES = [
  'software engineer',
  'researcher',
  'product designer',
  'data scientist',
  'founder',
  'engineering manager',
];
const FIELDS = [
  'distributed systems',
  'machine learning',
  'developer tools',
  'computational biology',
  'fintech',
  'open source',
];
const CITIES = ['London', 'Berlin', 'Toronto', 'Singapore', 'San Francisco', 'Lisbon'];
const PUBLICATIONS = [
  'The Engineering Review',
  'Tech Chronicle',
  'Industry Weekly',
  'Research Digest',
  'Open Source Times',
  'Conference Proceedings',
];
const TOPICS = ['keynote on', 'interview about', 'profile of work in', 'paper on', 'talk on', 'feature on'];

/** FNV-1a: a small, stable hash, so the same slug gives the same article everywhere. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function pick<T>(list: readonly T[], seed: number, salt: number): T {
  return list[(seed + salt * 7919) % list.length]!;
}

/** `ada-lovelace-1a2b3c` → `Ada Lovelace`: words of letters only, capitalised. */
export function titleFromSlug(slug: string): string {
  const words = slug
    .split(/[-_.]+/)
    .filter((word) => /^[\p{L}]+$/u.test(word))
    .map((word) => word[0]!.toUpperCase() + word.slice(1).toLowerCase());
  return words.length ? words.join(' ') : slug;
}

interface ArticleText {
  title: string;
  content: string;
  sources: Source[];
  infobox: Record<string, unknown>;
}

export function writeArticle(slug: string, version: number): ArticleText {
  const seed = hash(slug);
  const title = titleFromSlug(slug);
  const role = pick(ROLES, seed, 1);
  const field = pick(FIELDS, seed, 2);
  const city = pick(CITIES, seed, 3);
  const count = 3 + (seed % 4);
  const sources: Source[] = Array.from({ length: count }, (_, i) => {
    const topic = pick(TOPICS, seed, i + version);
    const publication = pick(PUBLICATIONS, seed, i + 11);
    return {
      id: i + 1,
      title: `${title}: ${topic} ${field}`,
      url: `https://example.org/${encodeURIComponent(slug)}/v${version}/source-${i + 1}`,
      publication,
      excerpt: `${title} discusses ${field} and what comes next.`,
    };
  });
  const refs = (n: number) => `[${((n + version) % count) + 1}]`;
  const content = [
    `# ${title}`,
    '',
    `**${title}** is a ${role} based in ${city}, known for work in ${field}${refs(0)}.`,
    '',
    '## Career',
    '',
    `${title} has worked on ${field} for more than ${5 + (seed % 15)} years${refs(1)}, ` +
      `leading teams and publishing widely cited work${refs(2)}.`,
    '',
    '## Recent work',
    '',
    `As of research run ${version}, ${title} focuses on ${pick(FIELDS, seed, version + 4)}${refs(3)}.`,
  ].join('\n');
  const infobox = {
    name: title,
    occupation: role,
    field,
    location: city,
    known_for: pick(FIELDS, seed, 5),
  };
  return { title, content, sources, infobox };
}

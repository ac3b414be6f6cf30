// Slugs that behave in a set way, like a payment provider's test card numbers.
type ProfileBehaviour = 'normal' | 'fail' | 'notfound' | 'stuck';

export function profileBehaviour(profileId: string): ProfileBehaviour {
  if (profileId.startsWith('fail-')) return 'fail';
  if (profileId.startsWith('notfound-')) return 'notfound';
  if (profileId.startsWith('stuck-')) return 'stuck';
  return 'normal';
}

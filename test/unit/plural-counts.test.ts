/** The operator pages' counts take the noun's singular for one (CLDR rules), never "1 members". */
import { count } from '../../src/operator/views.js';

test.each([
  [1, 'member', undefined, '1 member'],
  [0, 'member', undefined, '0 members'],
  [2, 'course', undefined, '2 courses'],
  [1234, 'active learner', undefined, '1,234 active learners'],
  [1, 'person', 'people', '1 person'],
  [5, 'person', 'people', '5 people'],
])('count(%d, %s) → %s', (n, one, plural, expected) => {
  expect(count(n, one, plural)).toBe(expected);
});

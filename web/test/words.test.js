// The page's words under Node (issue 48): problems counted by severity, never "1 other", and
// the side names read as plural names ("the Swedes"), never "a piece of Swedes".

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { problemCount, notYourPiece } from '../src/words.js';

const problems = (...severities) => severities.map((severity) => ({ severity }));

test('problems are counted by severity', () => {
  assert.equal(problemCount([]), 'no problems');
  assert.equal(problemCount(problems('warning')), '1 warning');
  assert.equal(problemCount(problems('error', 'error', 'note')), '2 errors, 1 note');
  assert.equal(
    problemCount(problems('note', 'warning', 'error', 'warning')),
    '1 error, 2 warnings, 1 note',
  );
});

test('a press on the wrong piece names both sides with their article', () => {
  assert.equal(
    notYourPiece('Swedes', 'Muscovites'),
    'That piece belongs to the Swedes; the Muscovites are to move.',
  );
  assert.equal(notYourPiece(null, 'Muscovites'), 'Choose a piece belonging to the Muscovites first.');
});

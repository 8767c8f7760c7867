// Where a cartridge keeps its tests: scenario files in `tests/`, blessed transcripts and saves below it.

export const TESTS_FOLDER = 'tests';

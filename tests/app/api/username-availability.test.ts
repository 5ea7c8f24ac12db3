// The wizard's user-name check keeps the server's answers per name, but never a failed ask (offline, 429,
// down): that one shows as 'unknown' and the name is asked again.
import { describe, expect, it } from 'vitest';
import { askWhenTypingPauses, NO_ANSWERS, stateOf, unanswered, withAnswer } from '../../../src/app/api/username-availability';

describe('user name availability answers', () => {
  it('keeps a real answer: no new ask for that name, when typing pauses or when the step is left', () => {
    const a = withAnswer(NO_ANSWERS, 'lupita.gomez', false);
    expect(stateOf('lupita.gomez', a)).toBe('taken');
    expect(askWhenTypingPauses('lupita.gomez', a)).toBe(false);
    expect(unanswered('lupita.gomez', a)).toBe(false);
    expect(stateOf('lupita.gomez', withAnswer(a, 'lupita.gomez', true))).toBe('available');
  });

  it("does not cache a failed ask: 'unknown' now, asked again when the step is left, then answered", () => {
    const failed = withAnswer(NO_ANSWERS, 'ana.ruiz', 'error');
    expect(stateOf('ana.ruiz', failed)).toBe('unknown');
    // Not asked again on every render while 'unknown' shows…
    expect(askWhenTypingPauses('ana.ruiz', failed)).toBe(false);
    // …but leaving the step asks again, and that answer is kept.
    expect(unanswered('ana.ruiz', failed)).toBe(true);
    const retried = withAnswer(failed, 'ana.ruiz', true);
    expect(stateOf('ana.ruiz', retried)).toBe('available');
    expect(unanswered('ana.ruiz', retried)).toBe(false);
  });

  it('asks again about a failed name when it is typed again after another name was answered', () => {
    let a = withAnswer(NO_ANSWERS, 'ana.ruiz', 'error');
    expect(askWhenTypingPauses('ana.ruiz2', a)).toBe(true);
    a = withAnswer(a, 'ana.ruiz2', true);
    expect(stateOf('ana.ruiz', a)).toBe('checking');
    expect(askWhenTypingPauses('ana.ruiz', a)).toBe(true);
  });

  it('says nothing about a name too short to register', () => {
    expect(stateOf('ab', NO_ANSWERS)).toBe('idle');
    expect(askWhenTypingPauses('ab', NO_ANSWERS)).toBe(false);
    expect(unanswered('ab', NO_ANSWERS)).toBe(false);
  });
});

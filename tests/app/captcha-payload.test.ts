import { createChallenge, solveChallenge, verifySolution } from 'altcha-lib/v1';
import { describe, expect, it } from 'vitest';
import { encodeCaptchaPayload } from '../../src/app/register/captcha-payload';

describe('ALTCHA payload', () => {
  it('a solved challenge encodes to a payload the server-side check accepts', async () => {
    const hmacKey = 'test-key';
    const challenge = await createChallenge({ hmacKey, maxNumber: 2000 });
    const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, 2000).promise;
    expect(solution).not.toBeNull();
    const payload = encodeCaptchaPayload(challenge, solution!.number);
    const decoded = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
    expect(Object.keys(decoded).sort()).toEqual(['algorithm', 'challenge', 'number', 'salt', 'signature']);
    expect(await verifySolution(payload, hmacKey)).toBe(true);
  });

  it('a wrong number is rejected', async () => {
    const hmacKey = 'test-key';
    const challenge = await createChallenge({ hmacKey, maxNumber: 50, number: 7 });
    expect(await verifySolution(encodeCaptchaPayload(challenge, 8), hmacKey)).toBe(false);
  });
});

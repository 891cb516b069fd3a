import { describe, expect, it } from 'vitest';
import { canMoveFeedback, detectFeedbackImageType, FEEDBACK_IMAGE_MAX_BYTES, FEEDBACK_STATUSES, feedbackImageProblem, feedbackInputSchema } from './feedback.js';

const bytes = (text: string) => Uint8Array.from(text, (character) => character.charCodeAt(0));
const PNG_HEAD = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

describe('feedback rules', () => {
  it('recognises images by their first bytes, not by a name', () => {
    expect(detectFeedbackImageType(PNG_HEAD)).toBe('image/png');
    expect(detectFeedbackImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(detectFeedbackImageType(bytes('GIF89a......'))).toBe('image/gif');
    expect(detectFeedbackImageType(bytes('RIFF\u0000\u0000\u0000\u0000WEBP'))).toBe('image/webp');
    expect(detectFeedbackImageType(bytes('%PDF-1.7 ....'))).toBeUndefined();
  });

  it('refuses empty, too large and non-image files', () => {
    expect(feedbackImageProblem(0, PNG_HEAD)).toBe('empty');
    expect(feedbackImageProblem(FEEDBACK_IMAGE_MAX_BYTES + 1, PNG_HEAD)).toBe('tooLarge');
    expect(feedbackImageProblem(FEEDBACK_IMAGE_MAX_BYTES, PNG_HEAD)).toBeNull();
    expect(feedbackImageProblem(10, bytes('<script>x</s'))).toBe('unsupportedType');
  });

  it('lets a closed feedback go nowhere and never back to NEW', () => {
    for (const status of FEEDBACK_STATUSES) {
      expect(canMoveFeedback('CLOSED', status)).toBe(false);
      expect(canMoveFeedback(status, 'NEW')).toBe(false);
    }
    expect(canMoveFeedback('RESOLVED', 'IN_PROGRESS')).toBe(true);
  });

  it('requires a description that is not blank', () => {
    expect(feedbackInputSchema.safeParse({ type: 'ERROR', category: 'SOFTWARE', description: '  ' }).success).toBe(false);
    expect(feedbackInputSchema.safeParse({ type: 'IMPROVE', category: 'HARDWARE', description: 'Strap breaks' }).success).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { maskStrings } from './mask-strings.js';

describe('maskStrings', () => {
  it('masks every string field at any depth, but not the kind and type discriminators', () => {
    const observation = {
      kind: 'FileEditorObservation',
      content: [
        { type: 'text', text: 'the S' },
        { type: 'image', image_urls: ['data:S'] },
      ],
      old_content: 'S before',
      diff: { lines: ['+S'], count: 1, ok: true, none: null },
    };
    const masked = maskStrings(observation, (text) => text.replaceAll('S', '#'));
    expect(masked).toEqual({
      kind: 'FileEditorObservation',
      content: [
        { type: 'text', text: 'the #' },
        { type: 'image', image_urls: ['data:#'] },
      ],
      old_content: '# before',
      diff: { lines: ['+#'], count: 1, ok: true, none: null },
    });
  });
});

import { describe, expect, it } from 'vitest';
import { imageProblems, imageUrlProblem } from './image-url.js';

describe('imageUrlProblem', () => {
  it.each([
    'https://images.example/cat.jpg',
    'http://127.0.0.1:8000/a.png?size=2',
    'data:image/png;base64,iVBORw0KGgo=',
    'DATA:IMAGE/JPEG;BASE64,/9j/4AAQ',
    'data:image/svg+xml;base64,PHN2Zz4=',
    'data:image/webp;base64,UklGR-_w',
  ])('takes %s', (url) => {
    expect(imageUrlProblem(url)).toBeUndefined();
  });

  it.each([
    ['javascript:alert(1)', 'a javascript: URL cannot be sent to a model'],
    ['file:///etc/passwd', 'a file: URL cannot be sent to a model'],
    ['ftp://127.0.0.1/a.png', 'a ftp: URL cannot be sent to a model'],
    ['/images/cat.jpg', 'not a URL'],
    ['cat.jpg', 'not a URL'],
    ['data:text/plain;base64,aGk=', 'a data: URL of an image must be'],
    ['data:image/png,rawbytes', 'a data: URL of an image must be'],
    ['data:image/png;base64,not base64!', 'a data: URL of an image must be'],
    ['data:image/png;base64,AA==#2', 'a data: URL of an image must be'],
    ['data:image/png;base64,', 'the data: URL holds no image data'],
  ])('refuses %s, saying why', (url, why) => {
    expect(imageUrlProblem(url)).toContain(why);
  });

  it('names each refused URL of a message by where it is', () => {
    const message = {
      content: [
        { type: 'text' },
        { type: 'image', image_urls: ['https://images.example/ok.png', 'file:///etc/shadow'] },
        { type: 'image', image_urls: ['javascript:x'] },
      ],
    };
    expect(imageProblems(message)).toEqual([
      expect.stringMatching(/^content\.1\.image_urls\.1: a file: URL/),
      expect.stringMatching(/^content\.2\.image_urls\.0: a javascript: URL/),
    ]);
    expect(imageProblems({ content: [{ type: 'image', image_urls: ['https://a.example/b.png'] }] })).toEqual([]);
  });
});
